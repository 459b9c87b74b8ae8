// Lets `node -r ./bench/ingest-register.cjs bench/x.ts` run TypeScript benches against src/ with the
// project's own swc settings (the same transform jest uses), without a build step or ts-node.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const options = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.swcrc'), 'utf8'));
delete options.$schema;

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, swcrc: false, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};

// Node tries extensions in registration order (.js, .json, .node, then ours): `./ai-assistants`
// would load ai-assistants.json before ai-assistants.ts. Put .ts first, as jest and tsc resolve it.
for (const ext of Object.keys(require.extensions)) {
  if (ext === '.ts') continue;
  const handler = require.extensions[ext];
  delete require.extensions[ext];
  require.extensions[ext] = handler;
}
