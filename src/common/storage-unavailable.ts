/**
 * True when an error means a store could not be reached or gave up (connection refused, timeout,
 * memory or time limit hit): the caller should retry later, so it maps to 503, not 500.
 */
export function isStorageUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P03', '53300', '08000', '08003', '08006', '08001'].includes(code)) {
    return true;
  }
  // ClickHouse: TIMEOUT_EXCEEDED (159), MEMORY_LIMIT_EXCEEDED (241), TOO_MANY_SIMULTANEOUS_QUERIES (202), ABORTED (236).
  if (err.constructor?.name === 'ClickHouseError' && ['159', '241', '202', '236'].includes(String(code))) return true;
  return /timeout|timed out|socket hang up|connection terminated|ECONNREFUSED|Connection refused/i.test(err.message);
}
