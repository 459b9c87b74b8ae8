/**
 * `npm run eval:classify`: Docent's classifier on the labelled corpus (test/classification/),
 * beside isbot alone and ua-parser-js 1.x alone: confusion matrix, AI recall, per-category
 * recall, and every row it gets wrong. `-- --quiet` leaves out the baselines' misses.
 */
import { docent, evaluate, formatReport, isbotAlone, loadCorpus, uaParserAlone } from '../test/classification/evaluate';

const rows = loadCorpus();
console.log(formatReport(evaluate('Docent', rows, docent), true));
console.log();
console.log(formatReport(evaluate('isbot alone (bot vs human; no AI class)', rows, isbotAlone), false));
console.log();
console.log(formatReport(evaluate('ua-parser-js 1.x alone (no bot or AI detection: "no browser recognised" read as bot)', rows, uaParserAlone), false));
