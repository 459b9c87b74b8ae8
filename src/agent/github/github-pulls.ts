import { Injectable, Logger } from '@nestjs/common';
import { Octokit } from '@octokit/rest';
import { Config } from '../../config/config';
import { SecretScrubber } from '../runner/secret-scrubber';
import { AgentTurnError, TurnAborted } from '../runner/turn-errors';

export interface RepositoryName {
  owner: string;
  repo: string;
}

/**
 * The hosts whose repositories are GitHub's: github.com, and the web host of the configured API
 * (`https://ghe.example.com/api/v3` → ghe.example.com; `https://api.github.com` → github.com).
 */
export function gitHubWebHosts(apiUrl: string): Set<string> {
  const apiHost = new URL(apiUrl).host;
  return new Set(['github.com', apiHost.replace(/^api\./, '')]);
}

/**
 * `https://github.com/acme/docs` (also with `.git` or a trailing slash) → `{ owner: 'acme', repo: 'docs' }`
 * when its host is one of `hosts` (see gitHubWebHosts); anything else, another code host included → null.
 */
export function parseRepository(url: string | null | undefined, hosts: ReadonlySet<string>): RepositoryName | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (!hosts.has(parsed.host)) return null;
  const parts = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/, '').split('/').filter(Boolean);
  if (parts.length !== 2) return null;
  const [owner, repo] = parts.map(decodeURIComponent);
  if (!/^[A-Za-z0-9-]+$/.test(owner) || !/^[A-Za-z0-9._-]+$/.test(repo)) return null;
  return { owner, repo };
}

/**
 * The pull request of a job's branch, through the two GitHub REST calls of the contract:
 * `GET /repos/{owner}/{repo}/pulls?head={owner}:{branch}&state=all`, then `POST /repos/{owner}/{repo}/pulls`
 * only when none exists. Server errors and network failures are retried twice.
 */
@Injectable()
export class GitHubPulls {
  private readonly logger = new Logger(GitHubPulls.name);
  private readonly octokit: Octokit;

  constructor(
    private readonly config: Config,
    private readonly scrubber: SecretScrubber,
  ) {
    this.octokit = new Octokit({
      baseUrl: config.GITHUB_API_URL.replace(/\/+$/, ''),
      auth: config.GITHUB_TOKEN,
      userAgent: 'docent',
      log: {
        debug: () => undefined,
        info: () => undefined,
        // Octokit logs every failed request; the runner reports the failure once, as the turn's error.
        warn: (message: string) => this.logger.debug(this.scrubber.scrub(message)),
        error: (message: string) => this.logger.debug(this.scrubber.scrub(message)),
      },
    });
  }

  /** Returns the html_url of the branch's pull request, opening one (head `branch`, base `base`) if there is none. */
  async ensurePull(input: RepositoryName & { branch: string; base: string; title: string; body: string; signal: AbortSignal }): Promise<string> {
    const { owner, repo, branch, signal } = input;
    const found = await this.findPull(input);
    if (found) return found;
    try {
      const created = await this.call('open', input, () =>
        this.octokit.rest.pulls.create({ owner, repo, head: branch, base: input.base, title: input.title, body: input.body, request: { signal } }),
      );
      this.logger.log(`Opened pull request ${created.data.html_url}`);
      return created.data.html_url;
    } catch (err) {
      // Someone (a worker that lost its lease) opened it between our GET and POST.
      if (err instanceof AgentTurnError && (err.cause as { status?: number })?.status === 422) {
        const again = await this.findPull(input);
        if (again) return again;
      }
      throw err;
    }
  }

  private async findPull(input: RepositoryName & { branch: string; signal: AbortSignal }): Promise<string | null> {
    const { owner, repo, branch, signal } = input;
    const list = await this.call('look up', input, () =>
      this.octokit.rest.pulls.list({ owner, repo, head: `${owner}:${branch}`, state: 'all', request: { signal } }),
    );
    const pull = list.data.find((p) => p.head?.ref === branch) ?? list.data[0];
    return pull?.html_url ?? null;
  }

  private async call<T>(action: string, input: RepositoryName & { signal: AbortSignal }, fn: () => Promise<T>): Promise<T> {
    const delays = [500, 2000];
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (input.signal.aborted) throw new TurnAborted();
        const status = (err as { status?: number }).status;
        const transient = status === undefined || status === 429 || status >= 500;
        if (transient && attempt < delays.length) {
          this.logger.warn(`GitHub ${action} failed (${status ?? 'network error'}); retrying`);
          await new Promise((r) => setTimeout(r, delays[attempt]));
          continue;
        }
        const where = `${input.owner}/${input.repo}`;
        const hint = status === 401 || status === 403 ? ' Check GITHUB_TOKEN.' : status === 404 ? ' Check the repository and that GITHUB_TOKEN can see it.' : '';
        const message =
          status === undefined
            ? `Could not reach GitHub to ${action} the pull request for ${where}: ${this.scrubber.scrub(err instanceof Error ? err.message : String(err)).slice(0, 200)}`
            : `GitHub answered HTTP ${status} when asked to ${action} the pull request for ${where}.${hint}`;
        throw new AgentTurnError(message, false, { cause: err });
      }
    }
  }
}
