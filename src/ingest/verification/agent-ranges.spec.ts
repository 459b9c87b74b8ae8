import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRanges } from './agent-ranges';

const GPTBOT_RANGE_IP = '20.125.66.85';
const ELSEWHERE = '1.1.1.1';
const list = (prefixes: string[], creationTime = '2026-11-30T00:00:00Z') =>
  JSON.stringify({ creationTime, prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) });

describe('AgentRanges', () => {
  let dataDir: string;
  let dir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'docent-ranges-'));
    dir = join(dataDir, 'agent-ranges');
    mkdirSync(dir);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('verified / unverified / unknown from the shipped lists', async () => {
    const ranges = new AgentRanges({ dataDir, checkIntervalMs: 0 });
    await ranges.onModuleInit();
    expect(ranges.verify('GPTBot', GPTBOT_RANGE_IP)).toBe('verified');
    expect(ranges.verify('GPTBot', ELSEWHERE)).toBe('unverified');
    expect(ranges.verify('GPTBot', undefined)).toBe('unknown');
    // Meta publishes no crawler ranges.
    expect(ranges.verify('Meta-ExternalAgent', GPTBOT_RANGE_IP)).toBe('unknown');
    // One ranges file for Anthropic's three agents.
    expect(ranges.verify('Claude-User', GPTBOT_RANGE_IP)).toBe('unverified');
  });

  it('a corrupt refreshed file at start: the shipped list stays, and the reason shows', async () => {
    writeFileSync(join(dir, 'openai-gptbot.json'), '{"creationTime": "2026-11-30", "prefixes": [');
    const ranges = new AgentRanges({ dataDir, checkIntervalMs: 0 });
    const warn = jest.spyOn((ranges as unknown as { logger: { warn: (m: string) => void } }).logger, 'warn').mockImplementation(() => undefined);
    await ranges.onModuleInit();
    expect(ranges.verify('GPTBot', GPTBOT_RANGE_IP)).toBe('verified');
    const status = ranges.status().find((s) => s.id === 'openai-gptbot')!;
    expect(status).toMatchObject({ source: 'shipped', problem: expect.stringContaining('not a valid range list') });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('openai-gptbot.json is not a valid range list'));
  });

  it('picks up a refreshed list, a later change, a bad replacement (kept) and a removal (shipped again)', async () => {
    const ranges = new AgentRanges({ dataDir, checkIntervalMs: 0 });
    jest.spyOn((ranges as unknown as { logger: { warn: () => void; log: () => void } }).logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn((ranges as unknown as { logger: { warn: () => void; log: () => void } }).logger, 'log').mockImplementation(() => undefined);
    await ranges.onModuleInit();
    const file = join(dir, 'openai-gptbot.json');

    writeFileSync(file, list(['1.1.1.0/24']));
    await ranges.check();
    expect(ranges.verify('GPTBot', ELSEWHERE)).toBe('verified');
    expect(ranges.verify('GPTBot', GPTBOT_RANGE_IP)).toBe('unverified');
    expect(ranges.status().find((s) => s.id === 'openai-gptbot')).toMatchObject({ source: 'refreshed', publishedAt: '2026-11-30T00:00:00Z', prefixes: 1 });

    writeFileSync(file, list(['1.1.1.0/24', '20.125.66.80/28']));
    await ranges.check();
    expect(ranges.verify('GPTBot', GPTBOT_RANGE_IP)).toBe('verified');

    writeFileSync(file, 'not json at all');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await ranges.check();
    expect(ranges.verify('GPTBot', GPTBOT_RANGE_IP)).toBe('verified');
    expect(ranges.status().find((s) => s.id === 'openai-gptbot')).toMatchObject({ source: 'refreshed', problem: expect.any(String) });

    rmSync(file);
    await ranges.check();
    expect(ranges.verify('GPTBot', ELSEWHERE)).toBe('unverified');
    expect(ranges.status().find((s) => s.id === 'openai-gptbot')).toMatchObject({ source: 'shipped' });
    expect(ranges.status().find((s) => s.id === 'openai-gptbot')).not.toHaveProperty('problem');
  });

  it('re-checks on its own every checkIntervalMs', async () => {
    const ranges = new AgentRanges({ dataDir, checkIntervalMs: 50 });
    jest.spyOn((ranges as unknown as { logger: { log: () => void } }).logger, 'log').mockImplementation(() => undefined);
    await ranges.onModuleInit();
    writeFileSync(join(dir, 'openai-gptbot.json'), list(['1.1.1.0/24']));
    const deadline = Date.now() + 5000;
    while (ranges.verify('GPTBot', ELSEWHERE) !== 'verified' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    ranges.onModuleDestroy();
    expect(ranges.verify('GPTBot', ELSEWHERE)).toBe('verified');
  });

  it("reports each list's age", async () => {
    const ranges = new AgentRanges({ dataDir, checkIntervalMs: 0 });
    const status = ranges.status(Date.parse('2026-11-24T00:00:00Z'));
    expect(status.find((s) => s.id === 'openai-gptbot')).toEqual({
      id: 'openai-gptbot',
      operator: 'OpenAI',
      agents: ['GPTBot'],
      source: 'shipped',
      publishedAt: '2025-10-30T11:00:00.000000',
      fetchedAt: '2026-11-23T00:00:00.000Z',
      ageSeconds: 86_400,
      prefixes: 21,
    });
  });
});
