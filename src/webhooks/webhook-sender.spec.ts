import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isPublicAddress } from './destination';
import { sendDelivery } from './webhook-sender';

describe('sendDelivery', () => {
  let server: Server;
  let port: number;
  let mode: 'hang' | 'ok' = 'ok';
  let seen: { headers: Record<string, string>; body: string } | undefined;
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { headers: req.headers as Record<string, string>, body };
        if (mode === 'ok') res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const delivery = (host: string) => ({ id: 'msg_test', url: `http://${host}:${port}/hook`, secret, body: '{"type":"job.completed","timestamp":"x","data":{}}' });

  it('signs per Standard Webhooks: the standardwebhooks verifier accepts it', async () => {
    mode = 'ok';
    const result = await sendDelivery(delivery('127.0.0.1'), new Date(), true);
    expect(result).toEqual({ delivered: true, statusCode: 200, error: null });
    expect(seen!.headers['webhook-id']).toBe('msg_test');
    expect(new Webhook(secret).verify(seen!.body, seen!.headers)).toEqual(JSON.parse(seen!.body));
  });

  it('a receiver that hangs costs one attempt, ended by the timeout', async () => {
    mode = 'hang';
    const started = Date.now();
    const result = await sendDelivery(delivery('127.0.0.1'), new Date(), true, 300);
    expect(result).toMatchObject({ delivered: false, statusCode: null, error: expect.stringContaining('no answer') });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a private destination at delivery time: an IP literal, and a name that resolves to loopback (DNS rebinding)', async () => {
    mode = 'ok';
    seen = undefined;
    expect(await sendDelivery(delivery('127.0.0.1'), new Date(), false)).toMatchObject({ delivered: false, error: expect.stringContaining('not a public address') });
    expect(await sendDelivery(delivery('localhost'), new Date(), false)).toMatchObject({ delivered: false, error: expect.stringContaining('not a public address') });
    expect(seen).toBeUndefined();
  });

  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.0.1', '169.254.169.254', '100.64.0.1', '::1', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '0.0.0.0']) expect(isPublicAddress(a)).toBe(false);
    for (const a of ['93.184.215.14', '2606:4700::1111', '8.8.8.8']) expect(isPublicAddress(a)).toBe(true);
  });
});
