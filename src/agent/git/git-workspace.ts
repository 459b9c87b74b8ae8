import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { simpleGit, SimpleGit } from 'simple-git';
import { Config } from '../../config/config';
import { basicAuthValue, SecretScrubber } from '../runner/secret-scrubber';
import { AgentTurnError, TurnAborted } from '../runner/turn-errors';

const STALE_LOCK_MS = 60_000;
/** A clone writes its pack as it downloads; ten minutes without a write is a clone that died. */
const STALE_CLONE_MS = 10 * 60_000;

export const branchFor = (jobId: string) => `docent/${jobId}`;

/** One job's working tree for one turn: a detached worktree of the repository's mirror. */
export interface GitCheckout {
  dir: string;
  /** The bare mirror the worktree belongs to. */
  mirror: string;
  branch: string;
  /** The tip of `ref` when the turn started. */
  baseSha: string;
  /** Where this turn started: the remote `docent/<job>` branch if it exists, else `baseSha`. */
  startSha: string;
  /** True when the job's branch already existed on the remote before this turn. */
  branchExisted: boolean;
}

/**
 * Git for agent turns: a cached bare mirror per clone URL under DATA_DIR/git/mirrors (cloned once,
 * fetched on later turns) and a worktree per turn under DATA_DIR/git/worktrees. Worktrees are detached
 * (no local branch), so fetching into the mirror never collides with a branch checked out somewhere;
 * the commit is pushed straight to `refs/heads/docent/<job>` on the remote.
 */
@Injectable()
export class GitWorkspace {
  private readonly logger = new Logger(GitWorkspace.name);
  private readonly root: string;
  /** Serialises mirror operations in this process; other processes are tolerated by retries and atomic renames. */
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly tokenHosts: Set<string>;
  private readonly apiProtocol: string;

  constructor(
    private readonly config: Config,
    private readonly scrubber: SecretScrubber,
  ) {
    this.root = resolve(config.DATA_DIR, 'git');
    const api = new URL(config.GITHUB_API_URL);
    const apiHost = api.host;
    this.apiProtocol = api.protocol;
    // The token only ever goes to the code host: github.com for api.github.com, else the API's own host (GitHub Enterprise).
    this.tokenHosts = new Set([apiHost, apiHost.replace(/^api\./, '')]);
  }

  /** Brings the mirror up to date and adds a worktree for this turn of `jobId`. */
  async checkout(spec: { jobId: string; cloneUrl: string; ref: string; signal: AbortSignal }): Promise<GitCheckout> {
    const { jobId, cloneUrl, ref, signal } = spec;
    const branch = branchFor(jobId);
    const mirror = join(this.root, 'mirrors', `${createHash('sha256').update(cloneUrl).digest('hex').slice(0, 24)}.git`);
    await mkdir(join(this.root, 'mirrors'), { recursive: true });
    await mkdir(join(this.root, 'worktrees'), { recursive: true });

    return this.withLock(mirror, async () => {
      await this.updateMirror(mirror, cloneUrl, signal);
      const git = this.git(mirror, cloneUrl, signal);
      const baseSha = await this.resolveCommit(git, `refs/heads/${ref}`);
      if (!baseSha) throw new AgentTurnError(`The branch "${ref}" does not exist in the repository.`, false);
      const existing = await this.resolveCommit(git, `refs/heads/${branch}`);

      // A worktree left behind by a crashed worker on this job is stale: this worker holds the job now.
      const prefix = `${jobId}-`;
      for (const name of await readdir(join(this.root, 'worktrees'))) {
        if (name.startsWith(prefix)) await rm(join(this.root, 'worktrees', name), { recursive: true, force: true });
      }
      await git.raw(['worktree', 'prune']);
      const dir = join(this.root, 'worktrees', `${prefix}${randomBytes(4).toString('hex')}`);
      await git.raw(['worktree', 'add', '--quiet', '--detach', dir, existing ?? baseSha]);
      return { dir, mirror, branch, baseSha, startSha: existing ?? baseSha, branchExisted: existing !== null };
    });
  }

  /** Stages everything; commits if anything changed. Returns the new commit's sha, or null when nothing changed. */
  async commitAll(checkout: GitCheckout, subject: string, body: string, signal: AbortSignal): Promise<string | null> {
    const git = this.git(checkout.dir, null, signal);
    await git.raw(['add', '--all']);
    const status = await git.raw(['status', '--porcelain']);
    if (status.trim() === '') return null;
    const args = ['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', subject];
    if (body.trim()) args.push('-m', body.trim());
    await git.raw(args);
    return (await git.revparse(['HEAD'])).trim();
  }

  /** Whether the worktree's HEAD changes anything relative to where it forked from the base. */
  async differsFromBase(checkout: GitCheckout, signal: AbortSignal): Promise<boolean> {
    const out = await this.git(checkout.dir, null, signal).raw(['diff', '--name-only', `${checkout.baseSha}...HEAD`]);
    return out.trim() !== '';
  }

  /** Pushes HEAD to `refs/heads/docent/<job>` on the remote (fast-forward only). */
  async push(checkout: GitCheckout, cloneUrl: string, signal: AbortSignal): Promise<void> {
    const git = this.git(checkout.dir, cloneUrl, signal);
    try {
      await this.retry(signal, () => git.raw(['push', '--quiet', '--no-verify', cloneUrl, `HEAD:refs/heads/${checkout.branch}`]), (err) => !isRejection(err));
    } catch (err) {
      if (signal.aborted) throw new TurnAborted();
      if (isRejection(err)) {
        throw new AgentTurnError(`The branch ${checkout.branch} changed on the remote during the turn.`, true, { cause: err });
      }
      throw new AgentTurnError(`Could not push ${checkout.branch}: ${this.firstLine(err)}`, false, { cause: err });
    }
  }

  async remove(checkout: GitCheckout): Promise<void> {
    // Clean-up runs even when the turn was aborted, so it gets a signal of its own.
    const git = this.git(checkout.mirror, null, new AbortController().signal);
    await this.withLock(checkout.mirror, async () => {
      try {
        await git.raw(['worktree', 'remove', '--force', checkout.dir]);
      } catch (err) {
        this.logger.warn(`Could not remove a worktree cleanly (${this.firstLine(err)}); deleting it`);
        await rm(checkout.dir, { recursive: true, force: true });
        await git.raw(['worktree', 'prune']).catch(() => undefined);
      }
    });
  }

  private async updateMirror(mirror: string, cloneUrl: string, signal: AbortSignal): Promise<void> {
    if (existsSync(join(mirror, 'HEAD'))) {
      const git = this.git(mirror, cloneUrl, signal);
      try {
        await this.retry(signal, async () => {
          try {
            return await git.raw(['fetch', '--quiet', '--prune', '--no-tags', 'origin']);
          } catch (err) {
            await this.removeStaleLock(mirror, err);
            throw err;
          }
        });
      } catch (err) {
        if (signal.aborted) throw new TurnAborted();
        throw new AgentTurnError(`Could not fetch the repository: ${this.firstLine(err)}`, false, { cause: err });
      }
      return;
    }
    // Clone beside the final place and rename, so a concurrent worker never sees half a mirror.
    await this.removeStaleClones(dirname(mirror));
    const temp = `${mirror}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      await this.retry(signal, async () => {
        await rm(temp, { recursive: true, force: true });
        await this.git(this.root, cloneUrl, signal).raw(['clone', '--quiet', '--bare', '--no-tags', cloneUrl, temp]);
      });
      const git = this.git(temp, null, signal);
      await git.raw(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*']);
      await git.raw(['config', 'gc.auto', '0']);
      await rename(temp, mirror).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
        this.logger.debug('Another worker created the mirror first');
      });
    } catch (err) {
      if (signal.aborted) throw new TurnAborted();
      throw new AgentTurnError(`Could not clone the repository: ${this.firstLine(err)}`, false, { cause: err });
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }

  /**
   * A worker killed in the middle of a clone leaves its `*.tmp-*` folder behind. One untouched for
   * STALE_CLONE_MS is nobody's: a clone still running in another worker on this machine writes into it.
   */
  private async removeStaleClones(dir: string): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => /\.git\.tmp-[0-9a-f]+$/.test(n))) {
      const path = join(dir, name);
      const newest = await newestMtime(path);
      if (newest !== undefined && Date.now() - newest > STALE_CLONE_MS) {
        this.logger.warn(`Removing ${name}, left by an interrupted clone`);
        await rm(path, { recursive: true, force: true });
      }
    }
  }

  /** A worker killed in the middle of a fetch leaves its ref lock behind; one older than a minute is nobody's. */
  private async removeStaleLock(mirror: string, err: unknown): Promise<void> {
    const match = /Unable to create '([^']+\.lock)': File exists/.exec(err instanceof Error ? err.message : String(err));
    if (!match || !resolve(match[1]).startsWith(mirror)) return;
    const info = await stat(match[1]).catch(() => null);
    if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) {
      this.logger.warn('Removing a stale git lock left by an interrupted fetch');
      await rm(match[1], { force: true });
    }
  }

  private async resolveCommit(git: SimpleGit, ref: string): Promise<string | null> {
    try {
      return (await git.raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim() || null;
    } catch {
      return null;
    }
  }

  /** A git client for `dir`; when `remoteUrl` is an https URL of the code host, the token rides in a header, never in the URL. */
  private git(dir: string, remoteUrl: string | null, signal: AbortSignal): SimpleGit {
    const config = [`user.name=${this.config.GIT_AUTHOR_NAME}`, `user.email=${this.config.GIT_AUTHOR_EMAIL}`, 'core.hooksPath=/dev/null', 'commit.gpgSign=false'];
    const git = simpleGit({
      baseDir: dir,
      config,
      abort: signal,
      allowEnvironment: ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'],
      unsafe: { allowUnsafeHooksPath: true, allowUnsafeConfigEnvCount: true },
    });
    // A minimal environment for every remote: git never inherits the service's variables (tokens, keys),
    // only what it needs to run and, for ssh:// remotes, the agent socket.
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
    if (process.env.SSH_AUTH_SOCK) env.SSH_AUTH_SOCK = process.env.SSH_AUTH_SOCK;
    if (remoteUrl && this.config.GITHUB_TOKEN && this.sendsToken(remoteUrl)) {
      // Through git's config environment, not `-c` on the command line, which any local user can read in `ps`.
      Object.assign(env, {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.extraHeader',
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${basicAuthValue(this.config.GITHUB_TOKEN)}`,
      });
    }
    git.env(env);
    return git;
  }

  private sendsToken(url: string): boolean {
    try {
      const parsed = new URL(url);
      // Plain http only when the operator configured the API itself over http (a self-hosted or test code host).
      return (parsed.protocol === 'https:' || parsed.protocol === this.apiProtocol) && this.tokenHosts.has(parsed.host);
    } catch {
      return false;
    }
  }

  private async retry<T>(signal: AbortSignal, fn: () => Promise<T>, shouldRetry: (err: unknown) => boolean = () => true): Promise<T> {
    const delays = [300, 1500];
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (signal.aborted || attempt >= delays.length || !shouldRetry(err)) throw err;
        this.logger.warn(`git failed (${this.firstLine(err)}); retrying`);
        await new Promise((r) => setTimeout(r, delays[attempt]));
      }
    }
  }

  private async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => this.locks.get(key) === tail && this.locks.delete(key));
    return run;
  }

  private firstLine(err: unknown): string {
    const text = err instanceof Error ? err.message : String(err);
    const line = text.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('hint:')) ?? 'unknown error';
    return this.scrubber.scrub(line).slice(0, 300);
  }
}

function isRejection(err: unknown): boolean {
  const text = err instanceof Error ? err.message : String(err);
  return /\[rejected\]|non-fast-forward|fetch first|stale info/.test(text);
}

/** The newest modification time in a folder tree (a clone writes its objects deep inside it). */
async function newestMtime(path: string): Promise<number | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  let newest = info.mtimeMs;
  if (info.isDirectory()) {
    for (const entry of await readdir(path).catch(() => [] as string[])) {
      const child = await newestMtime(join(path, entry));
      if (child !== undefined && child > newest) newest = child;
    }
  }
  return newest;
}
