import { gitHubWebHosts, parseRepository } from './github-pulls';

const hosts = gitHubWebHosts('https://ghe.example.com/api/v3');

describe('parseRepository', () => {
  it.each([
    ['https://github.com/acme/docs', { owner: 'acme', repo: 'docs' }],
    ['https://github.com/acme/docs/', { owner: 'acme', repo: 'docs' }],
    ['https://github.com/acme/docs.git', { owner: 'acme', repo: 'docs' }],
    ['https://ghe.example.com/team-1/my.docs', { owner: 'team-1', repo: 'my.docs' }],
  ])('%s → owner and repo', (url, expected) => {
    expect(parseRepository(url, hosts)).toEqual(expected);
  });

  it.each([null, '', 'not a url', 'file:///srv/git/docs.git', 'https://github.com/acme', 'https://github.com/acme/docs/tree/main', 'https://github.com/ac me/docs', 'https://gitlab.com/acme/docs', 'https://codeberg.org/acme/docs.git', 'https://github.com.evil.example/acme/docs'])('%p → null', (url) => {
    expect(parseRepository(url, hosts)).toBeNull();
  });
});

describe('gitHubWebHosts', () => {
  it('is github.com for the public API, plus the web host of an Enterprise API', () => {
    expect([...gitHubWebHosts('https://api.github.com')]).toEqual(['github.com']);
    expect([...gitHubWebHosts('https://ghe.example.com/api/v3')].sort()).toEqual(['ghe.example.com', 'github.com']);
  });
});
