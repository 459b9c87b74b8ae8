import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, GaveUp, retryAfterMs } from './api-client';

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterMs(inTenSeconds)).toBeGreaterThan(8000);
    expect(retryAfterMs(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('ApiClient', () => {
  const answers: Array<[number, Record<string, string>]> = [];
  let seen: Array<{ method?: string; auth?: string; key?: string }> = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, auth: req.headers.authorization, key: req.headers['idempotency-key'] as string | undefined });
    const [status, headers] = answers.shift() ?? [200, {}];
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: `answer ${status}`, details: [{ field: 'f', message: 'm' }] }));
  });
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    seen = [];
    answers.length = 0;
  });
  const client = (attempts = 3) => new ApiClient(base, 'docent_key', { attempts, baseDelayMs: 1, maxDelayMs: 5 });

  it('retries 503 and 429 (honouring Retry-After) with the same request, then returns the answer', async () => {
    answers.push([503, { 'retry-after': '0' }], [429, {}], [202, {}]);
    const res = await client().send('POST', '/x', { body: '{}', headers: { 'idempotency-key': 'k1' } });
    expect(res.status).toBe(202);
    expect(seen).toEqual(Array(3).fill({ method: 'POST', auth: 'Bearer docent_key', key: 'k1' }));
  });

  it('returns a 400 or a 500 at once: a retry cannot fix either', async () => {
    answers.push([400, {}]);
    expect((await client().send('GET', '/x')).status).toBe(400);
    answers.push([500, {}]);
    expect((await client().send('GET', '/x')).status).toBe(500);
    expect(seen).toHaveLength(2);
  });

  it('gives up after the attempts with the last reason', async () => {
    answers.push([503, {}], [503, {}]);
    await expect(client(2).send('GET', '/x')).rejects.toThrow(new GaveUp('gave up after 2 attempts: 503 answer 503 (f: m)'));
  });
});
