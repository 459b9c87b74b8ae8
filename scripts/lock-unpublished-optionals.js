#!/usr/bin/env node
// The registry this project is built against lacks some native packages for other platforms
// (chdb's @chdb/lib-darwin-*, jest's @unrs/resolver-binding-*). npm then leaves them out of
// package-lock.json, and `npm ci` calls the lock out of sync. Recording them with only their
// os/cpu lets `npm ci` skip them as incompatible. Run after any `npm install` that rewrites the lock.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const PLATFORM = /-(darwin|linux|win32|android|freebsd|openbsd|netbsd|sunos|aix|openharmony)-(arm64|x64|ia32|arm|loong64|ppc64|riscv64|s390x)(?:-(gnu|musl))?/;
let added = 0;
for (const [where, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (resolves(where, name)) continue;
    const m = PLATFORM.exec(name);
    if (!m) throw new Error(`cannot tell the platform of missing optional package ${name}`);
    lock.packages[`node_modules/${name}`] = {
      version,
      optional: true,
      os: [m[1]],
      cpu: [m[2]],
      ...(m[3] ? { libc: [m[3] === 'gnu' ? 'glibc' : 'musl'] } : {}),
      ...(pkg.dev ? { dev: true } : {}),
    };
    added++;
  }
}

// Node's lookup: node_modules of the package's own folder, then of each ancestor, up to the root.
function resolves(where, name) {
  for (let dir = where; ; ) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i >= 0 ? dir.slice(0, i) : '';
  }
}
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} unpublished optional package(s)`);
