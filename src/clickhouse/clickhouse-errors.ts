/**
 * ClickHouse error codes that mean "these rows are invalid", not "the store is unwell": the same
 * insert will fail again however often it is retried, so the caller gets 400, never 503.
 * (CANNOT_PARSE_TEXT, CANNOT_PARSE_ESCAPE_SEQUENCE, CANNOT_PARSE_QUOTED_STRING,
 * CANNOT_PARSE_INPUT_ASSERTION_FAILED, CANNOT_PARSE_DATE, CANNOT_PARSE_DATETIME, TYPE_MISMATCH,
 * ARGUMENT_OUT_OF_BOUND, CANNOT_CONVERT_TYPE, CANNOT_PARSE_NUMBER, INCORRECT_DATA,
 * TOO_LARGE_STRING_SIZE, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN,
 * UNKNOWN_ELEMENT_OF_ENUM.) Anything else (unreachable, timeout, memory, a missing table) is the
 * store's problem.
 */
const DATA_ERROR_CODES = new Set(['6', '25', '26', '27', '38', '41', '53', '69', '70', '72', '117', '131', '321', '349', '691']);
/** TOO_MANY_PARTS also means "merges are behind" (the store's problem); only this wording is the data's. */
const TOO_MANY_PARTITIONS = /too many partitions for single insert block/i;

export function isClickHouseError(err: unknown): err is Error & { code: string; type?: string } {
  return err instanceof Error && err.constructor?.name === 'ClickHouseError' && (err as { code?: unknown }).code !== undefined;
}

/** True when ClickHouse refused an insert because of the rows it was given. */
export function isRejectedData(err: unknown): boolean {
  if (!isClickHouseError(err)) return false;
  const code = String(err.code);
  return DATA_ERROR_CODES.has(code) || (code === '252' && TOO_MANY_PARTITIONS.test(err.message));
}
