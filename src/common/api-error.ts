import { HttpException } from '@nestjs/common';

export interface ErrorDetail {
  message: string;
  field?: string;
}

export interface ErrorBody {
  error: string;
  details?: ErrorDetail[];
}

/** An error whose message is safe to show to the caller, with optional per-field details and headers. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super({ error: message, ...(details?.length ? { details } : {}) } satisfies ErrorBody, status);
  }

  static badRequest(message: string, details?: ErrorDetail[]) {
    return new ApiError(400, message, details);
  }
  static invalidField(field: string, message: string) {
    return new ApiError(400, message, [{ field, message }]);
  }
  static unauthorized(message = 'A valid API key is required: send "Authorization: Bearer <key>".') {
    return new ApiError(401, message);
  }
  static forbidden(message = 'This API key belongs to another project.') {
    return new ApiError(403, message);
  }
  static notFound(message: string) {
    return new ApiError(404, message);
  }
  static conflict(message: string) {
    return new ApiError(409, message);
  }
  static unavailable(message: string, retryAfterSeconds = 5) {
    return new ApiError(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}
