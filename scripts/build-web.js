// Builds the dashboard (web/ → web/dist) with Vite when a source is newer than the build: `npm run
// build` (and so `npm start`) and jest's globalSetup (the browser suites open the real dashboard)
// both call it, and a build that is up to date is left alone — rebuilding empties web/dist, which
// a running server would notice. `--force` always builds.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
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

function buildWeb(force = false) {
  const inputs = Math.max(newest(web), statSync(join(root, 'package-lock.json')).mtimeMs);
  if (!force && existsSync(built) && statSync(built).mtimeMs >= inputs) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(web, 'vite.config.mts'), '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

module.exports = buildWeb;
if (require.main === module) buildWeb(process.argv.includes('--force'));
