import { createServer, IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ErrorBody, ErrorDetail } from './api-error';

/**
 * What happens to a request before any route sees it: time limits, the errors Node and Fastify raise
 * on their own (bad URL encoding, oversized headers, a malformed request line, a stalled body), and
 * NUL characters. Every answer from here has the one error shape, like everything the filter renders.
 */
export interface EdgeTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** Node checks the time limits this often; its default (30 s) would let a 30 s limit run to a minute. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

const errorJson = (message: string, details?: ErrorDetail[]): string => JSON.stringify({ error: message, ...(details ? { details } : {}) } satisfies ErrorBody);

/** Errors Node raises while parsing a request, before Fastify has a request object. */
function clientErrorStatus(err: NodeJS.ErrnoException): [number, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request did not arrive in time; the connection is closed.'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'The request line or headers are too large.'];
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'The Content-Length header is invalid.'];
    default:
      return [400, 'The request is not valid HTTP.'];
  }
}

function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorStatus(err);
  const body = errorJson(message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify options for the adapter: our own HTTP server with every time limit, and shaped framework errors. */
export function edgeServerOptions(timeouts: EdgeTimeouts): Pick<FastifyServerOptions, 'serverFactory' | 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    serverFactory: (handler) => {
      const server: Server = createServer(
        {
          requestTimeout: timeouts.requestTimeoutMs,
          headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs),
          connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        },
        handler as (req: IncomingMessage, res: ServerResponse) => void,
      );
      server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
      return server;
    },
    clientErrorHandler: onClientError,
    // Raised by Fastify's router before any route or hook: malformed %-encoding, oversized parameters.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const message = error.code === 'FST_ERR_BAD_URL' ? 'The URL is not validly %-encoded.' : 'The request is invalid.';
      void reply.code(400).header('content-type', 'application/json; charset=utf-8').send(errorJson(message));
    },
  };
}

/** The field path of the first string (or key) holding a NUL character, e.g. `hits[3].path`. */
export function findNul(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const field = at ? `${at}.${key}` : key;
      if (key.includes('\u0000')) return field;
      const found = findNul(child, field);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const NUL_IN_PATH = /%00/i;

/**
 * NUL is refused everywhere: Postgres text cannot hold it, and no id, name, prompt or path needs it.
 * In the URL path nothing with one can exist (404); in the query or body it is the caller's input (400).
 */
export function refuseNul(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const q = request.url.indexOf('?');
    if (NUL_IN_PATH.test(q === -1 ? request.url : request.url.slice(0, q))) {
      void reply.code(404).header('content-type', 'application/json; charset=utf-8').send(errorJson('No route or resource matches this request.'));
      return;
    }
    const field = q === -1 || !NUL_IN_PATH.test(request.url.slice(q)) ? undefined : findNul(request.query, '');
    if (field !== undefined) return void refuse(reply, field);
    done();
  });
  fastify.addHook('preValidation', (request, reply, done) => {
    const field = request.body === undefined ? undefined : findNul(request.body, '');
    if (field !== undefined) return void refuse(reply, field || 'body');
    done();
  });
}

function refuse(reply: FastifyReply, field: string): void {
  const message = `${field} must not contain NUL characters`;
  void reply.code(400).header('content-type', 'application/json; charset=utf-8').send(errorJson(`Invalid ${field}.`, [{ field, message }]));
}

/**
 * Errors thrown by the OpenAPI UI's routes, registered straight on Fastify (`/docs/LICENSE` throws a
 * 404), would leave in Fastify's own shape: Nest's filter never sees them. Only those routes get this
 * handler; a root one would be replaced by Nest's (with a warning at every start).
 */
export function shapeDocsRouteErrors(fastify: FastifyInstance, prefix: string): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url !== prefix && !route.url.startsWith(`${prefix}/`)) return;
    route.errorHandler = (error: FastifyError & { getStatus?: () => number }, _request, reply) => {
      const status = typeof error.getStatus === 'function' ? error.getStatus() : (error.statusCode ?? 500);
      const message = status === 404 ? 'No route or resource matches this request.' : status < 500 ? 'The request is invalid.' : 'Internal server error.';
      void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(errorJson(message));
    };
  });
}
