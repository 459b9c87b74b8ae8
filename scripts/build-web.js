// Builds the dashboard (web/ → web/dist) with Vite when a source is newer than the build: `npm run
// build` (and so `npm start`) and jest's globalSetup (the browser suites open the real dashboard)
// both call it; a build that is up to date is left alone. `--force` always builds.
// A build never pulls files from under a running server: Vite writes to a scratch folder, new
// hashed assets are added beside the old ones (a page loaded before keeps working), and
// index.html is replaced last, by an atomic rename.
const { execFileSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } = require('node:fs');
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
  const scratch = join(web, `.build-${process.pid}`);
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(web, 'vite.config.mts'), '--outDir', scratch, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    const assets = join(web, 'dist', 'assets');
    mkdirSync(assets, { recursive: true });
    for (const name of readdirSync(join(scratch, 'assets'))) {
      if (!existsSync(join(assets, name))) copyFileSync(join(scratch, 'assets', name), join(assets, name));
    }
    renameSync(join(scratch, 'index.html'), built);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

module.exports = buildWeb;
if (require.main === module) buildWeb(process.argv.includes('--force'));
