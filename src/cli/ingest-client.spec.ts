import { retryAfterMs } from './ingest-client';

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterMs(inTenSeconds)).toBeGreaterThan(8000);
    expect(retryAfterMs(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});
