import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, isPublicAddress } from './destination';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** What we read of a receiver's answer: enough for an error line; the rest is discarded unread. */
const MAX_RESPONSE_BYTES = 4096;

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface OutgoingDelivery {
  id: string;
  url: string;
  secret: string;
  body: string;
}

/**
 * One attempt: POST the stored body, signed per Standard Webhooks. Redirects are not followed (a
 * 3xx is a failed attempt), the answer is read up to 4 KiB, and the whole attempt ends after 10 s.
 */
export async function sendDelivery(delivery: OutgoingDelivery, at: Date, allowPrivate: boolean, timeoutMs = ATTEMPT_TIMEOUT_MS): Promise<AttemptResult> {
  const url = new URL(delivery.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to an IP literal without calling lookup, so literals are checked here.
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) return { delivered: false, statusCode: null, error: `destination ${host} is not a public address` };
  const signature = new Webhook(delivery.secret).sign(delivery.id, at, delivery.body);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Docent-Webhooks/1',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
    'content-length': String(Buffer.byteLength(delivery.body)),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = send(url, { method: 'POST', headers, lookup: guardedLookup(allowPrivate) as never, agent: false }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length >= MAX_RESPONSE_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
      function done() {
        const ok = status >= 200 && status < 300;
        finish({ delivered: ok, statusCode: status, error: ok ? null : `receiver answered ${status}${text ? `: ${oneLine(text)}` : ''}` });
      }
    });
    const timer = setTimeout(() => finish({ delivered: false, statusCode: null, error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ delivered: false, statusCode: null, error: oneLine(err.message) }));
    req.end(delivery.body);
  });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
