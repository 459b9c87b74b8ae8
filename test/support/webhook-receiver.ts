import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  body: { type: string; timestamp: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  verified: boolean;
  path: string;
}

/**
 * A local webhook receiver that verifies every request with the standardwebhooks verifier. Each
 * path answers as `behave(path, attemptNo)` says: a status, 'hang', 'redirect' or 'huge' (50 MB body).
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  secrets: Map<string, string>;
  behave: (path: string, attempt: number) => number | 'hang' | 'redirect' | 'huge';
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const attempts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const receiver: WebhookReceiver = { url: '', received: [], secrets: new Map(), behave: () => 200, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const raw = Buffer.concat(chunks).toString('utf8');
      const secret = receiver.secrets.get(path);
      let verified = false;
      try {
        if (secret) new Webhook(secret).verify(raw, req.headers as Record<string, string>);
        verified = Boolean(secret);
      } catch {
        verified = false;
      }
      const n = (attempts.get(path) ?? 0) + 1;
      attempts.set(path, n);
      receiver.received.push({ id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), body: JSON.parse(raw), verified, path });
      const how = receiver.behave(path, n);
      if (how === 'hang') {
        hanging.add(res);
        return;
      }
      if (how === 'redirect') return void res.writeHead(307, { location: `${receiver.url}/elsewhere` }).end();
      if (how === 'huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const block = Buffer.alloc(1024 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(block)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      res.writeHead(how).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}
