import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError, ErrorBody } from './api-error';
import { DomainError, httpOf } from './domain-errors';
import { isStorageUnavailable } from './storage-unavailable';

const STATUS_MESSAGES: Record<number, string> = {
  400: 'The request is invalid.',
  401: 'A valid API key is required.',
  403: 'Access to this resource is forbidden.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'The request conflicts with the current state of the resource.',
  413: 'The request body is too large.',
  415: 'The request body must be JSON (Content-Type: application/json).',
  429: 'Too many requests.',
  503: 'Storage is unavailable; retry later.',
};

// Fastify's own errors (body parsing, content type, size) carry a statusCode and an FST_ code.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: STATUS_MESSAGES[413],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: STATUS_MESSAGES[415],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

export interface Rendered {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Maps any thrown value to the one error shape; only ApiError and known framework errors keep their message. */
export function renderError(exception: unknown, logger: Logger): Rendered {
  if (exception instanceof DomainError) {
    const { status, headers } = httpOf(exception);
    return { status, body: { error: exception.message, ...(exception.details?.length ? { details: exception.details } : {}) }, headers };
  }
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), body: exception.getResponse() as ErrorBody, headers: exception.headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest turns Fastify's body-parser errors into plain HttpExceptions; their own text is not shown.
    const message =
      status === 404 ? 'No route or resource matches this request.'
      : status === 400 && /JSON/i.test(exception.message) ? FASTIFY_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY
      : (STATUS_MESSAGES[status] ?? 'The request failed.');
    return { status, body: { error: message }, headers: {} };
  }
  const err = exception as { statusCode?: unknown; code?: unknown; message?: unknown } | undefined;
  if (err && typeof err.code === 'string' && err.code.startsWith('FST_') && typeof err.statusCode === 'number' && err.statusCode < 500) {
    const message = FASTIFY_MESSAGES[err.code] ?? STATUS_MESSAGES[err.statusCode] ?? 'The request is invalid.';
    return { status: err.statusCode, body: { error: message }, headers: {} };
  }
  if (isStorageUnavailable(exception)) {
    logger.warn({ err: exception }, 'storage unavailable');
    return { status: 503, body: { error: STATUS_MESSAGES[503] }, headers: { 'Retry-After': '5' } };
  }
  logger.error({ err: exception }, 'unhandled error');
  return { status: 500, body: { error: 'Internal server error.' }, headers: {} };
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers } = renderError(exception, this.logger);
    void reply.status(status).headers({ ...headers, 'content-type': 'application/json; charset=utf-8' }).send(body);
  }
}
