import { InvalidInput } from './domain-errors';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The one rule for an `Idempotency-Key` header, on every route that takes one: 1–255 characters. */
export function assertIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
    throw InvalidInput.field('Idempotency-Key', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);
  }
}
