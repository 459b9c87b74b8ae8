// Summarises a V8 .cpuprofile (node --cpu-prof): the top functions by self time, and by package.
//   node -r ./bench/ingest-register.cjs bench/cpu-profile-top.ts FILE.cpuprofile [--top 30] [--skip 10]
// --skip leaves out the first seconds (start-up), so only the load is summarised; (idle) is left out.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
const topIndex = process.argv.indexOf('--top');
const TOP = topIndex === -1 ? 30 : Number(process.argv[topIndex + 1]);
const skipIndex = process.argv.indexOf('--skip');
const SKIP_US = skipIndex === -1 ? 0 : Number(process.argv[skipIndex + 1]) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
let elapsed = 0;
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed < SKIP_US || byId.get(id)!.callFrame.functionName === '(idle)') return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/') || url.includes('/src/')) return 'docent';
  if (url.startsWith('node:')) return 'node';
  return url ? 'other' : '(native)';
};
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url.replace(/^.*node_modules\//, '').replace(/^.*\/(dist|src)\//, '$1/');
  const key = `${functionName || '(anonymous)'}  ${short}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byPackage.set(where(url), (byPackage.get(where(url)) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s busy sampled${SKIP_US ? ` after the first ${SKIP_US / 1e6} s` : ''}\n\nby package (self time):\n`);
for (const [k, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`  ${pct(us)}  ${k}\n`);
process.stdout.write(`\ntop ${TOP} functions (self time):\n`);
for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(`  ${pct(us)}  ${k}\n`);
