import { parseRepository } from './github-pulls';

describe('parseRepository', () => {
  it.each([
    ['https://github.com/acme/docs', { owner: 'acme', repo: 'docs' }],
    ['https://github.com/acme/docs/', { owner: 'acme', repo: 'docs' }],
    ['https://github.com/acme/docs.git', { owner: 'acme', repo: 'docs' }],
    ['https://ghe.example.com/team-1/my.docs', { owner: 'team-1', repo: 'my.docs' }],
  ])('%s → owner and repo', (url, expected) => {
    expect(parseRepository(url)).toEqual(expected);
  });

  it.each([null, '', 'not a url', 'file:///srv/git/docs.git', 'https://github.com/acme', 'https://github.com/acme/docs/tree/main', 'https://github.com/ac me/docs'])('%p → null', (url) => {
    expect(parseRepository(url)).toBeNull();
  });
});
