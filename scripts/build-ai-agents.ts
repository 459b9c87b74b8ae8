/**
 * Checks the reviewed agent list (src/ingest/classifier/agents/registry.json) against the public
 * lists it is merged from, and writes the runtime list src/ingest/classifier/ai-agents.json.
 *
 *   npm run build:agents [-- path/to/ai-robots.json]
 *
 * Upstream lists (see src/ingest/classifier/ai-agents.PROVENANCE.md):
 *   - ai.robots.txt robots.json (MIT; snapshot at ../shared/data/ai-robots.json, or the path given);
 *   - crawler-user-agents (MIT, npm devDependency): every pattern tagged `ai-crawler`.
 * Every upstream name must be decided in registry.json (an agent's token, one of its registryKeys,
 * or a `pruned` entry with the class it gets instead); an undecided name fails the build, so a
 * new upstream agent is always looked at by a person before it counts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const CATEGORIES = ['assistant', 'agent', 'search', 'training', 'other'] as const;
type Category = (typeof CATEGORIES)[number];
type Match = 'word' | 'exact' | 'product';

interface RegistryAgent {
  name: string;
  operator: string;
  category: Category;
  tokens: string[];
  match?: Match;
  /** The names CLIs and SDKs give this agent when it runs them (`agent-name/claude_code`, `agent=claude`): lower case, `-` for `_`. */
  markers?: string[];
  docs: string | null;
  ranges: string[];
  sources: string[];
  registryKeys?: string[];
}

interface Registry {
  pruned: Record<string, { class: 'bot' | 'human'; reason: string }>;
  signatureAgents: Array<{ directory: string; agent: string }>;
  agents: RegistryAgent[];
}

const root = resolve(__dirname.endsWith('scripts') ? `${__dirname}/..` : '.');
const registryPath = resolve(root, 'src/ingest/classifier/agents/registry.json');
const outPath = resolve(root, 'src/ingest/classifier/ai-agents.json');
const rangesDir = resolve(root, 'src/ingest/verification/agent-ranges');
// shared/ sits beside the repository (or beside the worktrees' folder).
const robotsPath = resolve(
  process.argv[2] ?? [resolve(root, '../shared/data/ai-robots.json'), resolve(root, '../../shared/data/ai-robots.json')].find((p) => existsSync(p)) ?? '../shared/data/ai-robots.json',
);
const crawlerListPath = resolve(root, 'node_modules/crawler-user-agents/crawler-user-agents.json');

const registry = JSON.parse(readFileSync(registryPath, 'utf8')) as Registry;
const problems: string[] = [];

// 1. Each agent is complete and unambiguous.
const signedAgents = new Set(registry.signatureAgents.map((s) => s.agent));
const tokenOwner = new Map<string, string>();
const markerOwner = new Map<string, string>();
for (const a of registry.agents) {
  if (!CATEGORIES.includes(a.category)) problems.push(`${a.name}: category "${a.category}" is not one of ${CATEGORIES.join(', ')}`);
  if (!a.operator) problems.push(`${a.name}: no operator`);
  // An agent that sends no UA of its own is known by the marker a CLI run by it writes (Kiro, Windsurf)
  // or by the Web Bot Auth directory it signs with (Cloudflare Browser Run).
  if (a.tokens.length === 0 && !a.markers?.length && !signedAgents.has(a.name)) problems.push(`${a.name}: no tokens, markers or signature directory`);
  for (const m of a.markers ?? []) {
    if (!/^[a-z][a-z0-9.-]*$/.test(m)) problems.push(`${a.name}: marker "${m}" is not lower case with "-" for "_"`);
    const owner = markerOwner.get(m);
    if (owner !== undefined) problems.push(`marker "${m}" belongs to both ${owner} and ${a.name}`);
    markerOwner.set(m, a.name);
  }
  for (const t of a.tokens) {
    const owner = tokenOwner.get(t.toLowerCase());
    if (owner !== undefined && owner !== a.name) problems.push(`token "${t}" belongs to both ${owner} and ${a.name}`);
    tokenOwner.set(t.toLowerCase(), a.name);
    if (registry.pruned[t]) problems.push(`token "${t}" of ${a.name} is also pruned`);
  }
  for (const r of a.ranges) if (!existsSync(`${rangesDir}/${r}.json`)) problems.push(`${a.name}: ranges file ${r}.json is not shipped`);
}
const names = new Set(registry.agents.map((a) => a.name));
for (const s of registry.signatureAgents) if (!names.has(s.agent)) problems.push(`signature agent ${s.directory}: unknown agent ${s.agent}`);

// 2. Every upstream name has a decision.
const decided = (key: string): boolean => {
  const bare = key.replace(/\/[\d.]+$/, '').replace(/ \d+(\.\d+)*$/, '').toLowerCase();
  return key in registry.pruned || tokenOwner.has(bare) || registry.agents.some((a) => a.registryKeys?.includes(key));
};
const robots = JSON.parse(readFileSync(robotsPath, 'utf8')) as Record<string, unknown>;
const undecidedRobots = Object.keys(robots).filter((k) => !decided(k));
if (undecidedRobots.length) problems.push(`ai.robots.txt names without a decision: ${undecidedRobots.join(', ')}`);

const crawlerList = JSON.parse(readFileSync(crawlerListPath, 'utf8')) as Array<{ pattern: string; instances?: string[]; tags?: string[] }>;
const tokenPattern = new RegExp(
  `(?<![A-Za-z0-9_])(?:${[...tokenOwner.keys()].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![A-Za-z0-9_])`,
  'i',
);
const undecidedCrawlers = crawlerList
  .filter((c) => c.tags?.includes('ai-crawler'))
  .filter((c) => !(c.pattern in registry.pruned) && ![c.pattern.replace(/\\/g, ''), ...(c.instances ?? [])].some((s) => tokenPattern.test(s)))
  .map((c) => c.pattern);
if (undecidedCrawlers.length) problems.push(`crawler-user-agents ai-crawler patterns without a decision: ${undecidedCrawlers.join(', ')}`);

if (problems.length) {
  console.error(`agent registry: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

const out = {
  $comment: 'Generated by scripts/build-ai-agents.ts from agents/registry.json: edit that file, then run `npm run build:agents`. Provenance: ai-agents.PROVENANCE.md.',
  signatureAgents: registry.signatureAgents,
  agents: registry.agents.map((a) => ({
    name: a.name,
    operator: a.operator,
    category: a.category,
    // A word token matches in any case: one spelling of it is enough at run time.
    tokens: (a.match ?? 'word') === 'word' ? a.tokens.filter((t, i) => a.tokens.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i) : a.tokens,
    ...(a.match && a.match !== 'word' ? { match: a.match } : {}),
    ...(a.markers?.length ? { markers: a.markers } : {}),
    ...(a.ranges.length ? { ranges: a.ranges } : {}),
  })),
};
writeFileSync(outPath, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${outPath}: ${out.agents.length} agents, ${new Set(out.agents.map((a) => a.operator)).size} operators`);
