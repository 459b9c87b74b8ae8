import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from './update-agent-ranges';

/** The operators' servers, played locally: never the internet in tests. */
function serve(files: Record<string, { status?: number; body: string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const file = files[(req.url ?? '').slice(1)];
    res.writeHead(file ? (file.status ?? 200) : 404, { 'content-type': 'application/json' }).end(file?.body ?? 'not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const capture = () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
};

describe('npm run cli -- update-agent-ranges', () => {
  let dataDir: string;
  let server: Server;
  const GOOD = '{"creationTime":"2026-11-30T10:00:00.000000","prefixes":[{"ipv4Prefix":"20.125.66.80/28"},{"ipv4Prefix":"52.230.152.0/24"}]}';
  const PREVIOUS = '{"creationTime":"2026-11-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}';

  beforeAll(async () => {
    server = await serve({
      'openai-gptbot.json': { body: GOOD },
      'openai-searchbot.json': { body: '<html>Cloudflare challenge</html>' },
      'perplexity-user.json': { status: 503, body: 'busy' },
      'amazon-amazonbot.html': { body: '<html><script>var x = {"creationTime": "2026-11-29T00:00:00Z", "prefixes": [{"ipv4Prefix": "3.224.220.101"}]};</script></html>' },
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'docent-update-ranges-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('writes each good download in its own format, keeps the previous list where a download fails, and says so', async () => {
    mkdirSync(join(dataDir, 'agent-ranges'));
    writeFileSync(join(dataDir, 'agent-ranges', 'openai-searchbot.json'), PREVIOUS);
    const c = capture();
    const code = await run(['--from', base(), '--only', 'openai-gptbot,openai-searchbot,perplexity-user,amazon-amazonbot'], c.io, { DATA_DIR: dataDir });

    expect(code).toBe(1);
    expect(readFileSync(join(dataDir, 'agent-ranges', 'openai-gptbot.json'), 'utf8')).toBe(GOOD);
    expect(JSON.parse(readFileSync(join(dataDir, 'agent-ranges', 'amazon-amazonbot.json'), 'utf8'))).toEqual({
      creationTime: '2026-11-29T00:00:00Z',
      prefixes: [{ ipv4Prefix: '3.224.220.101' }],
    });
    expect(readFileSync(join(dataDir, 'agent-ranges', 'openai-searchbot.json'), 'utf8')).toBe(PREVIOUS);
    expect(existsSync(join(dataDir, 'agent-ranges', 'perplexity-user.json'))).toBe(false);

    expect(c.out()).toContain('openai-gptbot: updated: 2 prefixes, published 2026-11-30T10:00:00.000000');
    expect(c.out()).toContain('2 of 4 lists refreshed');
    expect(c.err()).toMatch(/openai-searchbot: FAILED \(not JSON.*\); keeping the list refreshed .* \(published 2026-11-01T00:00:00Z\)/);
    expect(c.err()).toMatch(/perplexity-user: FAILED \(HTTP 503 .*\); keeping the list shipped with Docent/);
    expect(readFileSync(join(dataDir, 'agent-ranges', 'openai-gptbot.json'), 'utf8')).toBe(GOOD);
  });

  it('exits 0 when every list was refreshed, 2 on an unknown list', async () => {
    const ok = capture();
    expect(await run(['--from', base(), '--only', 'openai-gptbot'], ok.io, { DATA_DIR: dataDir })).toBe(0);
    const bad = capture();
    expect(await run(['--only', 'nope'], bad.io, { DATA_DIR: dataDir })).toBe(2);
    expect(bad.err()).toContain('unknown list: nope');
  });
});
