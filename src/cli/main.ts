#!/usr/bin/env node
// `npm run cli -- <command> ...`: small clients of Docent's HTTP API (no access to the stores).
import * as exportVisitors from './export-visitors';
import * as importLog from './import-log';
import * as updateAgentRanges from './update-agent-ranges';

const COMMANDS: Record<string, { summary: string; run(argv: string[]): Promise<number> }> = {
  'import-log': { summary: 'post an nginx/Apache combined log (plain or .gz) through the ingest API', run: importLog.run },
  export: { summary: 'export visitors: walk every page of the visitors report as CSV or JSON', run: exportVisitors.run },
  'update-agent-ranges': { summary: "download the operators' published AI agent IP ranges into DATA_DIR (verified agents)", run: (argv) => updateAgentRanges.run(argv) },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`usage: npm run cli -- <command> [options]\n\n${Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(12)} ${c.summary}`).join('\n')}\n`);
    return name ? 2 : 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
