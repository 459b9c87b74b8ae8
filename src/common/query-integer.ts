/**
 * One rule for every integer query parameter (`limit`, `offset`): plain decimal digits only. `05` is
 * 5; `+5`, ` 5`, `5.0`, `1e1`, `0x10` and the empty string are not integers here, whatever
 * Number() would make of them (an unencoded `+` in a URL arrives as a space, so leniency would guess).
 */
export function parseQueryInteger(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) return undefined;
  return Number(value);
}
