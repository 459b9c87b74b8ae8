// Jest globalSetup: the browser suites open the real dashboard, so `npm test` builds it (web/ → web/dist)
// with Vite first — only when a source is newer than the build, so a warm run costs nothing.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const web = join(root, 'web');
const built = join(web, 'dist', 'index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

module.exports = function buildDashboard() {
  if (existsSync(built) && statSync(built).mtimeMs >= newest(web)) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(web, 'vite.config.mts'), '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
};
