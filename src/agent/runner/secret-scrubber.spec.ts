import { resolve } from 'node:path';
import { loadConfig } from '../../config/config';
import { basicAuthValue, SecretScrubber } from './secret-scrubber';

describe('SecretScrubber', () => {
  const scrubber = new SecretScrubber(loadConfig({ DATA_DIR: '/var/lib/docent', AGENT_API_KEY: 'sk-live-abcdef123', GITHUB_TOKEN: 'ghp_secret987654' }));

  it('removes the model key, the GitHub token and its Basic form', () => {
    const text = `key sk-live-abcdef123 token ghp_secret987654 header ${basicAuthValue('ghp_secret987654')}`;
    expect(scrubber.scrub(text)).toBe('key [redacted] token [redacted] header [redacted]');
  });

  it('removes credentials in URLs and authorization headers', () => {
    expect(scrubber.scrub('fatal: https://user:pw@github.com/acme/docs.git not found')).toBe('fatal: https://[redacted]@github.com/acme/docs.git not found');
    expect(scrubber.scrub('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]');
  });

  it('hides the data directory', () => {
    expect(scrubber.scrub(`could not open ${resolve('/var/lib/docent')}/git/mirrors/x.git`)).toBe('could not open <data>/git/mirrors/x.git');
  });

  it('gives one safe error text: the first meaningful line, scrubbed, bounded', () => {
    const err = new Error(`hint: try again\nfatal: Authentication failed with ${basicAuthValue('ghp_secret987654')}\nmore detail`);
    expect(scrubber.errorText(err)).toBe('fatal: Authentication failed with [redacted]');
    expect(scrubber.errorText('x'.repeat(500), 300)).toHaveLength(300);
    expect(scrubber.errorText(new Error(''))).toBe('unknown error');
  });
});
