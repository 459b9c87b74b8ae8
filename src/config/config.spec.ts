import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine (embedded engines, port 3000)', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.CLICKHOUSE_URL).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.WORKER).toBe(true);
    expect(config.AGENT_CONCURRENCY).toBe(2);
    expect(config.GITHUB_API_URL).toBe('https://api.github.com');
  });

  it('parses numbers, booleans and URLs', () => {
    const config = loadConfig({ PORT: '8080', WORKER: 'off', TRUST_PROXY: 'true', CLICKHOUSE_URL: 'http://clickhouse:8123', DATABASE_URL: 'postgres://u@db/docent' });
    expect(config).toMatchObject({ PORT: 8080, WORKER: false, TRUST_PROXY: true, CLICKHOUSE_URL: 'http://clickhouse:8123', DATABASE_URL: 'postgres://u@db/docent' });
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ CLICKHOUSE_URL: '', DATABASE_URL: '' }).CLICKHOUSE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['CLICKHOUSE_URL', 'not a url'],
    ['WORKER', 'maybe'],
    ['AGENT_CONCURRENCY', '0'],
    ['ADMIN_TOKEN', 'short'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', WORKER: 'y' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT=/);
      expect((err as Error).message).toMatch(/WORKER=/);
    }
  });
});
