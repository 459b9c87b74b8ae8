import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where `npm run build:web` writes the dashboard (web/dist); the same two levels up from src/ and dist/. */
export const DASHBOARD_DIR = resolve(__dirname, '..', '..', 'web', 'dist');

/**
 * Strict: only this origin's own scripts, styles and API. No inline script, no eval, no framing.
 * style-src allows no inline <style> either; uPlot and Preact set styles through the CSSOM, which CSP does not restrict.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The dashboard: a static single-page app, a client of the public API only. Hashed assets are
 * cached for a year; the HTML (which names the current hashes) is revalidated on every load, and
 * every /dashboard/* route answers it so that deep links and reloads work.
 */
export async function registerDashboard(fastify: FastifyInstance, dir = DASHBOARD_DIR): Promise<void> {
  const indexPath = join(dir, 'index.html');
  const index = existsSync(indexPath) ? readFileSync(indexPath) : undefined;

  await fastify.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/dashboard/assets/',
    index: false,
    etag: true,
    lastModified: false,
    cacheControl: false,
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    },
  });

  const sendIndex = (_req: unknown, reply: FastifyReply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    if (!index) {
      return reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('The dashboard is not built. Run `npm run build` (or `npm start`, which builds it).\n');
    }
    return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  };
  fastify.get('/dashboard', { logLevel: 'warn' }, sendIndex);
  fastify.get('/dashboard/*', { logLevel: 'warn' }, sendIndex);
}
