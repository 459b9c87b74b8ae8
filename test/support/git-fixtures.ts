import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export interface CommitInfo {
  sha: string;
  /** First line of the message. */
  subject: string;
  /** The rest of the message (after the blank line), trimmed. */
  body: string;
  authorName: string;
  authorEmail: string;
}

export interface BareRepo {
  /** The bare repository directory. */
  path: string;
  /** `file://` + path: pass as the project's cloneUrl. */
  cloneUrl: string;
  /** The file's content on `branch`, or null when the branch or the file does not exist. */
  readFile(branch: string, path: string): Promise<string | null>;
  /** Branch names (without refs/heads/), sorted. */
  branches(): Promise<string[]>;
  /** Commits reachable from `branch`, newest first ([] when the branch does not exist). */
  log(branch: string): Promise<CommitInfo[]>;
  /** Paths of the files on `branch`, sorted. */
  listFiles(branch: string): Promise<string[]>;
  /** Adds a commit to `branch` of the bare repo (as if someone else pushed; a new branch starts from the default one), returns its sha. */
  commit(branch: string, files: Record<string, string>, message?: string): Promise<string>;
  /** Deletes the temp directories. */
  remove(): void;
}

/**
 * Creates a bare git repository in a temp directory, with one commit holding `files` on `branch`
 * (default `main`, also the bare repo's HEAD). Uses the git CLI.
 */
export async function createBareRepo(options: { files?: Record<string, string>; branch?: string } = {}): Promise<BareRepo> {
  const branch = options.branch ?? 'main';
  const files = options.files ?? { 'README.md': '# Docs\n' };
  const root = mkdtempSync(join(tmpdir(), 'docent-git-fixture-'));
  const bare = join(root, 'origin.git');
  await git(root, 'init', '--bare', '--quiet', `--initial-branch=${branch}`, bare);

  const commit = async (target: string, changed: Record<string, string>, message = 'Fixture commit'): Promise<string> => {
    const work = mkdtempSync(join(root, 'work-'));
    try {
      const exists = (await git(bare, 'branch', '--list', target)).trim() !== '';
      const empty = (await git(bare, 'for-each-ref', 'refs/heads/')).trim() === '';
      if (exists) {
        await git(root, 'clone', '--quiet', '--branch', target, bare, work);
      } else if (!empty) {
        // A new branch starts from the default branch, like a branch made on the host.
        await git(root, 'clone', '--quiet', bare, work);
        await git(work, 'checkout', '--quiet', '-b', target);
      } else {
        await git(work, 'init', '--quiet', `--initial-branch=${target}`);
        await git(work, 'remote', 'add', 'origin', bare);
      }
      for (const [path, content] of Object.entries(changed)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      await git(work, 'add', '-A');
      await git(work, 'commit', '--quiet', '-m', message);
      await git(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${target}`);
      return (await git(work, 'rev-parse', 'HEAD')).trim();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
  await commit(branch, files, 'Initial docs');

  const refExists = async (name: string) => {
    try {
      await git(bare, 'rev-parse', '--verify', '--quiet', `refs/heads/${name}`);
      return true;
    } catch {
      return false;
    }
  };

  return {
    path: bare,
    cloneUrl: `file://${bare}`,
    async readFile(name, path) {
      if (!(await refExists(name))) return null;
      try {
        return await git(bare, 'show', `refs/heads/${name}:${path}`);
      } catch {
        return null;
      }
    },
    async branches() {
      const out = await git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/');
      return out.split('\n').filter(Boolean).sort();
    },
    async log(name) {
      if (!(await refExists(name))) return [];
      const out = await git(bare, 'log', '--format=%H%x1f%s%x1f%b%x1f%an%x1f%ae%x1e', `refs/heads/${name}`);
      return out
        .split('\x1e')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => {
          const [sha, subject, body, authorName, authorEmail] = entry.split('\x1f');
          return { sha, subject, body: body.trim(), authorName, authorEmail };
        });
    },
    async listFiles(name) {
      const out = await git(bare, 'ls-tree', '-r', '--name-only', `refs/heads/${name}`);
      return out.split('\n').filter(Boolean).sort();
    },
    commit,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
