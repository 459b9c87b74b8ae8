import { AI_CATEGORIES } from '../../src/ingest/classifier/user-agent-classifier';
import { CLASSES, docent, evaluate, formatReport, loadCorpus } from './evaluate';

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
