/** One place for the time arithmetic and formats every feature shares. */

export const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD hh:mm:ss.sss' in UTC: how DateTime64(3, 'UTC') columns and parameters take an instant. */
export function toClickHouseTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
}
