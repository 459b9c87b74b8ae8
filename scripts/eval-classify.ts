/**
 * `npm run eval:classify`: Docent's classifier on the labelled corpus (test/classification/),
 * beside isbot alone and ua-parser-js 1.x alone: confusion matrix, AI recall, per-category
 * recall, and every row it gets wrong; then how much the rules for unlisted agents find alone.
 *
 * `-- --corpus <file>` measures another file of rows in the corpus's shape instead (a held-out set
 * kept outside the repository); where its rows mark labels as unsure (`"sure": false`), the figures
 * are printed again on the sure rows alone; where its rows carry `visitors` (a set taken from a real
 * access log), accuracy and AI recall are also given per visitor.
 */
import { CorpusRow, docent, evaluate, formatReport, isbotAlone, loadCorpus, Predict, rulesAlone, uaParserAlone } from '../test/classification/evaluate';

const args = process.argv.slice(2);
const corpusAt = args.indexOf('--corpus');
const rows = corpusAt >= 0 ? loadCorpus(args[corpusAt + 1]) : loadCorpus();

function report(set: readonly CorpusRow[], label: string): void {
  const of = (name: string, predict: Predict, misses: boolean): string => formatReport(evaluate(`${name}${label}`, set, predict), misses);
  console.log(of('Docent', docent, true));
  console.log();
  const alone = evaluate('rules alone', set, rulesAlone);
  console.log(
    `Docent with its agent list emptied (the rules for unlisted agents alone): AI recall ${(alone.aiRecall * 100).toFixed(2)} %, ` +
      `AI precision ${(alone.aiPrecision * 100).toFixed(2)} %, 3-class accuracy ${(alone.accuracy * 100).toFixed(2)} %`,
  );
  console.log();
  console.log(of('isbot alone (bot vs human; no AI class)', isbotAlone, false));
  console.log();
  console.log(of('ua-parser-js 1.x alone (no bot or AI detection: "no browser recognised" read as bot)', uaParserAlone, false));
}

report(rows, '');
const sure = rows.filter((row) => row.sure !== false);
if (sure.length < rows.length) {
  console.log(`\n${rows.length - sure.length} rows are labelled unsure; the same figures on the ${sure.length} sure rows:\n`);
  report(sure, ' (sure labels)');
}
