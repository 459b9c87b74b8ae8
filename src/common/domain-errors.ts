import type { ErrorDetail } from './api-error';

/**
 * What services throw: the domain's words, no HTTP. The one exception filter
 * (all-exceptions.filter.ts) turns each into a status and headers; services never pick either.
 */
export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The caller's input can never succeed as sent (400). */
export class InvalidInput extends DomainError {
  static field(field: string, message: string): InvalidInput {
    return new InvalidInput(message, [{ field, message }]);
  }
}

/** No such resource in this project (404). */
export class NotFound extends DomainError {}

/** The resource's state does not allow this now: archived, not finished, … (409). */
export class InvalidTransition extends DomainError {}

/** The project's budget is spent until `retryAfterSeconds` (429). */
export class RateLimited extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Too much is waiting to be stored: retry shortly (503). */
export class QueueFull extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The store did not take the write (503): the request may succeed later. */
export class StoreUnavailable extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Status and headers of a domain error: the only place that knows them. */
export function httpOf(err: DomainError): { status: number; headers: Record<string, string> } {
  const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });
  if (err instanceof InvalidInput) return { status: 400, headers: {} };
  if (err instanceof NotFound) return { status: 404, headers: {} };
  if (err instanceof InvalidTransition) return { status: 409, headers: {} };
  if (err instanceof RateLimited) return { status: 429, headers: retryAfter(err.retryAfterSeconds) };
  if (err instanceof QueueFull || err instanceof StoreUnavailable) return { status: 503, headers: retryAfter(err.retryAfterSeconds) };
  return { status: 500, headers: {} };
}
