import { AI_CATEGORIES } from '../../src/ingest/classifier/user-agent-classifier';
import { CLASSES, CorpusRow, docent, evaluate, formatReport, loadCorpus } from './evaluate';

// The figures themselves: `npm run eval:classify`.
describe('the labelled user-agent corpus', () => {
  const rows = loadCorpus();
  const report = evaluate('Docent', rows, docent);

  it('is at least 600 real user agents, each with its source and licence', () => {
    expect(rows.length).toBeGreaterThanOrEqual(600);
    expect(rows.filter((r) => !r.source || !r.license)).toEqual([]);
    expect(new Set(rows.map((r) => r.ua)).size).toBe(rows.length);
  });

  it('covers every class, every AI category and at least 25 operators', () => {
    for (const c of CLASSES) expect(rows.filter((r) => r.class === c).length).toBeGreaterThan(50);
    for (const c of AI_CATEGORIES) expect(report.categories[c].rows).toBeGreaterThanOrEqual(5);
    expect(rows.filter((r) => r.class === 'ai').every((r) => r.agent && r.operator && r.category)).toBe(true);
    expect(report.operators.distinct).toBeGreaterThanOrEqual(25);
  });

  it('is classified with ≥ 99 % 3-class accuracy and ≥ 98 % AI recall', () => {
    const summary = formatReport(report, true);
    expect({ accuracy: report.accuracy >= 0.99, aiRecall: report.aiRecall >= 0.98, summary }).toEqual({ accuracy: true, aiRecall: true, summary });
  });

  it('never counts a browser or a search crawler as AI', () => {
    expect({ browsersAsAi: report.browsersAsAi, searchCrawlersAsAi: report.searchCrawlersAsAi }).toEqual({ browsersAsAi: 0, searchCrawlersAsAi: 0 });
  });
});

describe('a held-out set from an access log', () => {
  const row = (ua: string, label: CorpusRow['class'], visitors: number): CorpusRow => ({ ua, class: label, visitors, kind: '', source: 'test', license: '' });
  const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  const gptbot = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

  it('is also measured per visitor, each row counted once per client that sent it', () => {
    // Labelled wrong on purpose, so one row is a miss: 1 of 3 strings, 10 of 50 visitors, the only AI visitors.
    const report = evaluate('log', [row(chrome, 'human', 30), row('curl/8.4.0', 'bot', 10), row(chrome.replace('120', '121'), 'ai', 10)], docent);
    expect(report.accuracy).toBeCloseTo(2 / 3);
    expect(report.byVisitors).toEqual({ visitors: 50, accuracy: 40 / 50, aiVisitors: 10, aiRecall: 0 });
  });

  it('has no per-visitor figure when its rows carry no visitor counts', () => {
    expect(evaluate('fixtures', [{ ua: gptbot, class: 'ai', kind: '', source: 'test', license: '' }], docent).byVisitors).toBeUndefined();
  });
});
