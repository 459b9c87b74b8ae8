import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, ErrorDetail } from './api-error';

/** Flattens nested class-validator errors into details named like `hits[3].path`. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    const field = /^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : prefix ? `${prefix}.${e.property}` : e.property;
    // One rule may back several constraints (an integer in a range): say it once.
    const messages = new Set(Object.values(e.constraints ?? {}).map((message) => message.replace(e.property, field)));
    for (const message of messages) out.push({ field, message });
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      const fields = [...new Set(details.map((d) => d.field))].join(', ');
      return ApiError.badRequest(`Invalid ${fields || 'request'}.`, details);
    },
  });
}
