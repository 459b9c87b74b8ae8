import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard is served by Docent itself at /dashboard (src/dashboard/dashboard.ts): hashed
// assets under /dashboard/assets/, cached for a year; no inline script, so a strict CSP holds.
export default defineConfig({
  root: dirname(fileURLToPath(import.meta.url)),
  base: '/dashboard/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
