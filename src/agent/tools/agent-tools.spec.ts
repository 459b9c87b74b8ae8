import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentTools } from './agent-tools';
import { CheckoutFs, LIMITS } from './checkout-fs';

describe('agent tools, confined to the checkout', () => {
  let base: string;
  let root: string;
  let outside: string;
  let call: (name: string, input: Record<string, unknown>) => Promise<string>;

  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'docent-tools-'));
    root = join(base, 'checkout');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'docs', 'guide'), { recursive: true });
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'README.md'), '# Docs\nWelcome to the docs.\n');
    writeFileSync(join(root, 'docs', 'intro.md'), 'Hello world.\nInstall with npm.\n');
    writeFileSync(join(root, 'docs', 'guide', 'setup.md'), 'Run npm install.\nThen npm start.\n');
    writeFileSync(join(root, '.git', 'config'), '[core]\n\tsecret = npm\n');
    writeFileSync(join(outside, 'secret.txt'), 'outside secret npm\n');
    symlinkSync(outside, join(root, 'docs', 'out-dir'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'docs', 'out-file.md'));
    symlinkSync('intro.md', join(root, 'docs', 'alias.md'));
    const tools = createAgentTools(await CheckoutFs.open(root), () => undefined);
    call = async (name, input) => String(await tools[name].execute!(input, { toolCallId: 't1', messages: [] }));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  describe('refusals come back as tool results', () => {
    it.each([
      ['../x', /contains "\.\."/],
      ['sub/../../x', /contains "\.\."/],
      ['/etc/passwd', /absolute path/],
      ['.git/config', /\.git, which is off limits/],
      ['docs/../.git/config', /contains "\.\."/],
      ['.GIT/config', /off limits/],
      ['docs/out-file.md', /outside the repository/],
      ['docs/out-dir/secret.txt', /outside the repository/],
    ])('read_file %s is refused', async (path, message) => {
      const result = await call('read_file', { path });
      expect(result).toMatch(/^Error: /);
      expect(result).toMatch(message);
      expect(result).not.toContain('outside secret');
      expect(result).not.toContain('secret = npm');
    });

    it('refuses writes, edits and deletes that would leave the checkout or touch .git', async () => {
      expect(await call('write_file', { path: '../x', content: 'x' })).toMatch(/^Error: .*"\.\."/);
      expect(await call('write_file', { path: '/tmp/docent-escape', content: 'x' })).toMatch(/^Error: .*absolute/);
      expect(await call('write_file', { path: 'docs/out-dir/new.txt', content: 'x' })).toMatch(/^Error: .*outside/);
      expect(await call('write_file', { path: 'docs/out-file.md', content: 'x' })).toMatch(/^Error: .*outside/);
      expect(await call('write_file', { path: '.git/hooks/post-commit', content: 'x' })).toMatch(/^Error: .*\.git/);
      expect(await call('edit_file', { path: '.git/config', old_string: 'npm', new_string: 'x' })).toMatch(/^Error: .*\.git/);
      expect(await call('delete_file', { path: '.git/config' })).toMatch(/^Error: .*\.git/);
      expect(await call('delete_file', { path: 'docs/out-dir/secret.txt' })).toMatch(/^Error: .*outside/);
      expect(await call('list_files', { path: '..' })).toMatch(/^Error: /);
      expect(await call('list_files', { path: 'docs/out-dir' })).toMatch(/^Error: .*outside/);
      expect(existsSync(join(base, 'x'))).toBe(false);
      expect(existsSync(join(outside, 'new.txt'))).toBe(false);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret npm\n');
      expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toContain('secret = npm');
      expect(existsSync(join(root, '.git', 'hooks'))).toBe(false);
    });

    it('refuses a symlink pointing into .git and a dangling symlink', async () => {
      symlinkSync('../.git/config', join(root, 'docs', 'git-config.md'));
      symlinkSync(join(outside, 'missing.txt'), join(root, 'docs', 'dangling.md'));
      expect(await call('read_file', { path: 'docs/git-config.md' })).toMatch(/^Error: .*\.git/);
      expect(await call('write_file', { path: 'docs/dangling.md', content: 'x' })).toMatch(/^Error: .*missing target/);
      expect(existsSync(join(outside, 'missing.txt'))).toBe(false);
    });
  });

  it('reads files, including a symlink that stays inside', async () => {
    expect(await call('read_file', { path: 'docs/intro.md' })).toBe('Hello world.\nInstall with npm.\n');
    expect(await call('read_file', { path: './docs//intro.md' })).toBe('Hello world.\nInstall with npm.\n');
    expect(await call('read_file', { path: 'docs/alias.md' })).toBe('Hello world.\nInstall with npm.\n');
    expect(await call('read_file', { path: 'docs/missing.md' })).toBe('Error: docs/missing.md does not exist.');
    expect(await call('read_file', { path: 'docs' })).toMatch(/^Error: docs is a directory/);
  });

  it('refuses to read binary and oversized files', async () => {
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    writeFileSync(join(root, 'big.md'), 'x'.repeat(LIMITS.readBytes + 1));
    expect(await call('read_file', { path: 'logo.png' })).toMatch(/binary/);
    expect(await call('read_file', { path: 'big.md' })).toMatch(/over the .*read limit/);
  });

  it('writes files, creating directories', async () => {
    expect(await call('write_file', { path: 'docs/new/page.md', content: '# New\n' })).toBe('Created docs/new/page.md (6 bytes).');
    expect(readFileSync(join(root, 'docs', 'new', 'page.md'), 'utf8')).toBe('# New\n');
    expect(await call('write_file', { path: 'README.md', content: 'replaced' })).toMatch(/^Updated README.md/);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('replaced');
  });

  it('edits when old_string occurs exactly once', async () => {
    expect(await call('edit_file', { path: 'docs/intro.md', old_string: 'Hello world.', new_string: 'Hello, reader.' })).toBe('Edited docs/intro.md.');
    expect(readFileSync(join(root, 'docs', 'intro.md'), 'utf8')).toBe('Hello, reader.\nInstall with npm.\n');
    expect(await call('edit_file', { path: 'docs/intro.md', old_string: 'absent', new_string: 'x' })).toMatch(/^Error: old_string was not found/);
    writeFileSync(join(root, 'twice.md'), 'a b a');
    expect(await call('edit_file', { path: 'twice.md', old_string: 'a', new_string: 'c' })).toMatch(/^Error: old_string occurs 2 times/);
    expect(readFileSync(join(root, 'twice.md'), 'utf8')).toBe('a b a');
    expect(await call('edit_file', { path: 'twice.md', old_string: '', new_string: 'c' })).toMatch(/^Error: old_string must not be empty/);
  });

  it('deletes files', async () => {
    expect(await call('delete_file', { path: 'docs/guide/setup.md' })).toBe('Deleted docs/guide/setup.md.');
    expect(existsSync(join(root, 'docs', 'guide', 'setup.md'))).toBe(false);
    expect(await call('delete_file', { path: 'docs/guide/setup.md' })).toMatch(/^Error: .*does not exist/);
    expect(await call('delete_file', { path: 'docs' })).toMatch(/^Error: docs is a directory/);
    // Deleting a link that stays inside removes the link, not its target.
    expect(await call('delete_file', { path: 'docs/alias.md' })).toBe('Deleted docs/alias.md.');
    expect(existsSync(join(root, 'docs', 'intro.md'))).toBe(true);
  });

  it('lists files without .git, without following symlinks', async () => {
    expect((await call('list_files', {})).split('\n')).toEqual([
      'README.md',
      'docs/alias.md',
      'docs/guide/setup.md',
      'docs/intro.md',
      'docs/out-dir',
      'docs/out-file.md',
    ]);
    expect(await call('list_files', { path: 'docs/guide' })).toBe('docs/guide/setup.md');
    expect(await call('list_files', { path: 'nope' })).toMatch(/^Error: nope does not exist/);
  });

  it('searches text files for a literal substring, skipping .git and symlinks out', async () => {
    expect((await call('search_files', { query: 'npm' })).split('\n')).toEqual(['docs/guide/setup.md:1: Run npm install.', 'docs/guide/setup.md:2: Then npm start.', 'docs/intro.md:2: Install with npm.']);
    expect(await call('search_files', { query: 'a.b' })).toBe('No matches for "a.b".');
    writeFileSync(join(root, 'many.md'), 'hit\n'.repeat(LIMITS.searchMatches + 5));
    const bounded = (await call('search_files', { query: 'hit' })).split('\n');
    expect(bounded).toHaveLength(LIMITS.searchMatches + 1);
    expect(bounded[bounded.length - 1]).toBe('… and 5 more matches (search for something more specific)');
  });

  it('runs the guard before every tool', async () => {
    const tools = createAgentTools(await CheckoutFs.open(root), () => {
      throw new Error('not wanted');
    });
    await expect(Promise.resolve(tools.write_file.execute!({ path: 'a.md', content: 'x' }, { toolCallId: 't', messages: [] }))).rejects.toThrow('not wanted');
    expect(existsSync(join(root, 'a.md'))).toBe(false);
  });
});
