/**
 * `npm run eval:classify`: Docent's classifier on the labelled corpus (test/classification/),
 * beside isbot alone and ua-parser-js 1.x alone: confusion matrix, AI recall, per-category
 * recall, and every row it gets wrong; then how much the rules for unlisted agents find alone. `-- --quiet` leaves out the baselines' misses.
 */
import { docent, evaluate, formatReport, isbotAlone, loadCorpus, rulesAlone, uaParserAlone } from '../test/classification/evaluate';

const rows = loadCorpus();
console.log(formatReport(evaluate('Docent', rows, docent), true));
console.log();
const alone = evaluate('rules alone', rows, rulesAlone);
console.log(
  `Docent with its agent list emptied (the rules for unlisted agents alone): AI recall ${(alone.aiRecall * 100).toFixed(2)} %, ` +
    `AI precision ${(alone.aiPrecision * 100).toFixed(2)} %, 3-class accuracy ${(alone.accuracy * 100).toFixed(2)} %`,
);
console.log();
console.log(formatReport(evaluate('isbot alone (bot vs human; no AI class)', rows, isbotAlone), false));
console.log();
console.log(formatReport(evaluate('ua-parser-js 1.x alone (no bot or AI detection: "no browser recognised" read as bot)', rows, uaParserAlone), false));
