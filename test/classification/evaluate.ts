import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { agentNamed, AiCategory, Classification, classifyUserAgent, HitClass, unlistedAiAgent } from '../../src/ingest/classifier/user-agent-classifier';

/** One labelled user agent of the corpus (labels by shared/spec/classification.md). */
export interface CorpusRow {
  ua: string;
  class: HitClass;
  agent?: string;
  operator?: string;
  category?: AiCategory;
  /** What the source says it is (crawler-user-agents tags, "browser", …). */
  kind: string;
  source: string;
  license: string;
  /** false where the labeller was unsure (held-out sets); the corpus's own rows are all sure. */
  sure?: boolean;
  /**
   * How many visitors sent this user agent, where the rows come from a real access log (distinct
   * client IPs); absent elsewhere. The visitors report counts people, not strings, so such a set is
   * also measured with each row counted this many times.
   */
  visitors?: number;
}

export const CLASSES: readonly HitClass[] = ['human', 'ai', 'bot'];
const CATEGORIES: readonly AiCategory[] = ['assistant', 'agent', 'search', 'training', 'other'];

/** The corpus, or another file of labelled rows in its shape (a held-out set); `kind` and `license` may be left out there. */
export function loadCorpus(path = resolve(__dirname, 'ua-corpus.json')): CorpusRow[] {
  const rows = (JSON.parse(readFileSync(path, 'utf8')) as { rows: Partial<CorpusRow>[] }).rows;
  return rows.map((row) => ({ kind: '', license: '', source: '', ...row }) as CorpusRow);
}

export interface Miss {
  row: CorpusRow;
  predicted: HitClass;
  detail: string;
}

export interface Report {
  name: string;
  rows: number;
  /** confusion[label][predicted] */
  confusion: Record<HitClass, Record<HitClass, number>>;
  accuracy: number;
  /** People vs automation (ai ∪ bot): the question isbot answers. */
  humanVsAutomation: number;
  aiRecall: number;
  aiPrecision: number;
  /** Per AI category: the share of its rows counted as ai, and as ai with the same category. */
  categories: Record<AiCategory, { rows: number; asAi: number; sameCategory: number }>;
  operators: { rows: number; same: number; distinct: number };
  browsersAsAi: number;
  searchCrawlersAsAi: number;
  /** Where rows carry `visitors`: the same accuracy and AI recall with each row counted once per visitor. */
  byVisitors?: { visitors: number; accuracy: number; aiVisitors: number; aiRecall: number };
  misses: Miss[];
}

export type Predict = (ua: string) => { class: HitClass; category?: string; operator?: string; agent?: string };

const predicted = (c: Classification): ReturnType<Predict> => ({ class: c.class, category: c.aiCategory, operator: c.aiOperator, agent: c.aiAgent });

export const docent: Predict = (ua) => predicted(classifyUserAgent(ua));

/**
 * Docent as if its agent list did not name the agent: where the list decided, ask only the rules for
 * unlisted agents (self-described AI, AI operators' domains). How well it would do on an AI agent
 * that no list has caught up with yet.
 */
export const rulesAlone: Predict = (ua) => {
  const c = classifyUserAgent(ua);
  if (c.class !== 'ai' || !agentNamed(c.aiAgent)) return predicted(c);
  const unlisted = unlistedAiAgent(ua.trim());
  return unlisted ? predicted(unlisted) : { class: isbot(ua) ? 'bot' : 'human' };
};

/** isbot alone: it knows automation from people, and has no AI class. */
export const isbotAlone: Predict = (ua) => ({ class: ua.trim() === '' || isbot(ua) ? 'bot' : 'human' });

/**
 * ua-parser-js 1.x has no bot or AI detection (that arrived with 2.x, AGPL): the nearest it offers
 * is whether it recognises a browser at all, so "no browser name" is read as automation.
 */
const parser = new UAParser();
export const uaParserAlone: Predict = (ua) => {
  parser.setUA(ua);
  return { class: parser.getBrowser().name ? 'human' : 'bot' };
};

const isSearchCrawler = (row: CorpusRow): boolean => row.class === 'bot' && /search-engine/.test(row.kind);

type Confusion = Report['confusion'];
const emptyConfusion = (): Confusion => Object.fromEntries(CLASSES.map((l) => [l, Object.fromEntries(CLASSES.map((p) => [p, 0]))])) as Confusion;
const sum = (m: Confusion, cell: (label: HitClass, predicted: HitClass) => boolean): number =>
  CLASSES.reduce((n, l) => n + CLASSES.reduce((k, p) => k + (cell(l, p) ? m[l][p] : 0), 0), 0);
const accuracyOf = (m: Confusion): number => sum(m, (l, p) => l === p) / sum(m, () => true);
const aiRecallOf = (m: Confusion): number => {
  const aiRows = sum(m, (l) => l === 'ai');
  return aiRows ? m.ai.ai / aiRows : 0;
};

export function evaluate(name: string, rows: readonly CorpusRow[], predict: Predict): Report {
  const confusion = emptyConfusion();
  // The same matrix with each row counted once per visitor, where rows come from an access log.
  const byVisitor = emptyConfusion();
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, { rows: 0, asAi: 0, sameCategory: 0 }])) as Report['categories'];
  const operators = { rows: 0, same: 0, distinct: new Set<string>() };
  const misses: Miss[] = [];
  let browsersAsAi = 0;
  let searchCrawlersAsAi = 0;
  for (const row of rows) {
    const p = predict(row.ua);
    confusion[row.class][p.class] += 1;
    byVisitor[row.class][p.class] += row.visitors ?? 0;
    if (p.class !== row.class) misses.push({ row, predicted: p.class, detail: p.agent ? `${p.agent} (${p.category}, ${p.operator})` : '' });
    if (row.class === 'human' && p.class === 'ai') browsersAsAi += 1;
    if (isSearchCrawler(row) && p.class === 'ai') searchCrawlersAsAi += 1;
    if (row.class === 'ai' && row.category) {
      const c = categories[row.category];
      c.rows += 1;
      if (p.class === 'ai') c.asAi += 1;
      if (p.class === 'ai' && p.category === row.category) c.sameCategory += 1;
      operators.rows += 1;
      if (row.operator) operators.distinct.add(row.operator);
      if (p.class === 'ai' && p.operator === row.operator) operators.same += 1;
    }
  }
  const total = rows.length;
  const aiPredicted = sum(confusion, (_l, p) => p === 'ai');
  const visitors = sum(byVisitor, () => true);
  return {
    name,
    rows: total,
    confusion,
    accuracy: accuracyOf(confusion),
    humanVsAutomation: sum(confusion, (l, p) => (l === 'human') === (p === 'human')) / total,
    aiRecall: aiRecallOf(confusion),
    aiPrecision: aiPredicted ? confusion.ai.ai / aiPredicted : 0,
    categories,
    operators: { rows: operators.rows, same: operators.same, distinct: operators.distinct.size },
    browsersAsAi,
    searchCrawlersAsAi,
    byVisitors: visitors
      ? { visitors, accuracy: accuracyOf(byVisitor), aiVisitors: sum(byVisitor, (l) => l === 'ai'), aiRecall: aiRecallOf(byVisitor) }
      : undefined,
    misses,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;

export function formatReport(r: Report, showMisses: boolean): string {
  const lines = [`== ${r.name}: ${r.rows} rows ==`, 'confusion (rows = label, columns = predicted):', `            ${CLASSES.map((c) => c.padStart(7)).join('')}`];
  for (const l of CLASSES) lines.push(`  ${l.padEnd(9)} ${CLASSES.map((p) => String(r.confusion[l][p]).padStart(7)).join('')}`);
  lines.push(
    `3-class accuracy ${pct(r.accuracy)}   human-vs-automation accuracy ${pct(r.humanVsAutomation)}`,
    `AI recall ${pct(r.aiRecall)}   AI precision ${pct(r.aiPrecision)}`,
    `browsers counted as AI: ${r.browsersAsAi}   search crawlers counted as AI: ${r.searchCrawlersAsAi}`,
    ...(r.byVisitors
      ? [`counted per visitor (${r.byVisitors.visitors} visitors, ${r.byVisitors.aiVisitors} of them AI): 3-class accuracy ${pct(r.byVisitors.accuracy)}   AI recall ${pct(r.byVisitors.aiRecall)}`]
      : []),
    'per AI category (rows; counted as ai; as ai with the same category):',
  );
  for (const [c, v] of Object.entries(r.categories)) {
    lines.push(`  ${c.padEnd(10)} ${String(v.rows).padStart(4)}   ${pct(v.rows ? v.asAi / v.rows : 0).padStart(9)}   ${pct(v.rows ? v.sameCategory / v.rows : 0).padStart(9)}`);
  }
  lines.push(`operator named right on ${r.operators.same} / ${r.operators.rows} AI rows (${r.operators.distinct} operators in the corpus)`);
  if (showMisses) {
    lines.push(`rows it gets wrong (${r.misses.length}):`);
    for (const m of r.misses) {
      const visitors = m.row.visitors === undefined ? '' : `; ${m.row.visitors} visitors`;
      lines.push(`  [${m.row.class} → ${m.predicted}${m.detail ? `: ${m.detail}` : ''}] ${m.row.ua}   (${m.row.kind}; ${m.row.source}${visitors})`);
    }
  }
  return lines.join('\n');
}
