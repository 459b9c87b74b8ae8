import { intOption, parseCommandLine, urlOption, usage, UsageError } from './args';

const SPECS = {
  url: { type: 'string', value: 'URL', required: true, description: 'service URL' },
  batch: { type: 'string', value: 'N', default: '500', description: 'batch size' },
  json: { type: 'boolean', description: 'JSON output' },
} as const;

describe('parseCommandLine', () => {
  it('reads options in both spellings, flags, defaults and positionals', () => {
    expect(parseCommandLine(['--url', 'http://x', 'a.log'], SPECS, { min: 1, max: 1 })).toEqual({ values: { url: 'http://x', batch: '500', json: false }, positionals: ['a.log'] });
    expect(parseCommandLine(['a.log', '--url=http://x', '--json', '--batch', '20'], SPECS, { min: 1, max: 1 }).values).toEqual({ url: 'http://x', batch: '20', json: true });
  });

  it('throws UsageError for unknown options, missing required ones and wrong positional counts', () => {
    expect(() => parseCommandLine(['--url', 'u', '--nope', 'f'], SPECS, { min: 1, max: 1 })).toThrow(UsageError);
    expect(() => parseCommandLine(['f'], SPECS, { min: 1, max: 1 })).toThrow('--url is required');
    expect(() => parseCommandLine(['--url', 'u'], SPECS, { min: 1, max: 1 })).toThrow('a file argument is required');
    expect(() => parseCommandLine(['--url', 'u', 'f', 'g'], SPECS, { min: 1, max: 1 })).toThrow('unexpected argument: g');
  });
});

describe('option helpers', () => {
  it('intOption bounds integers', () => {
    expect(intOption(undefined, 'batch', 1, 1000, 500)).toBe(500);
    expect(intOption('1000', 'batch', 1, 1000, 500)).toBe(1000);
    for (const bad of ['0', '1001', '1.5', '-3', 'ten', '']) expect(() => intOption(bad, 'batch', 1, 1000, 500)).toThrow('--batch must be an integer from 1 to 1000');
  });

  it('urlOption accepts http(s) and drops the trailing slash', () => {
    expect(urlOption('https://docent.example.com/', 'url')).toBe('https://docent.example.com');
    expect(urlOption('http://127.0.0.1:3000', 'url')).toBe('http://127.0.0.1:3000');
    expect(() => urlOption('docent.example.com', 'url')).toThrow(UsageError);
    expect(() => urlOption('ftp://x', 'url')).toThrow(UsageError);
  });

  it('usage lists every option with its default or required mark', () => {
    const text = usage('cmd --url URL FILE', SPECS);
    expect(text).toMatch(/^usage: cmd --url URL FILE\n/);
    expect(text).toMatch(/--url URL\s+service URL \(required\)/);
    expect(text).toMatch(/--batch N\s+batch size \(default 500\)/);
    expect(text).toMatch(/--json\s+JSON output\n/);
  });
});
