import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakePull {
  number: number;
  owner: string;
  repo: string;
  title: string;
  body: string | null;
  /** Branch name, e.g. docent/job_abc. */
  head: string;
  base: string;
  html_url: string;
}

export interface FakeGitHubCall {
  method: string;
  /** Path with query string, e.g. /repos/acme/docs/pulls?head=acme:docent/job_x&state=all */
  url: string;
  /** The authorization header as received (the token; tests may check it, never log it). */
  authorization: string | undefined;
  body: unknown;
  /** HTTP status the fake answered. */
  status: number;
}

export interface FakeGitHub {
  /** Pass as GITHUB_API_URL (no trailing slash). */
  apiUrl: string;
  /** The token the fake accepts (as `token X` or `Bearer X`); pass as GITHUB_TOKEN. */
  token: string;
  /** Pull requests created so far, in creation order. */
  pulls: FakePull[];
  /** Every request received, in order, including rejected ones. */
  calls: FakeGitHubCall[];
  /** The next `count` requests (any route) are answered with `status` (default one request). */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

/**
 * Starts a local stand-in for the two GitHub REST endpoints of the contract:
 * `GET /repos/{owner}/{repo}/pulls?head={owner}:{branch}&state=all` (lists the pulls it created whose
 * head matches) and `POST /repos/{owner}/{repo}/pulls` `{title, head, base, body}` (201 with
 * `{number, html_url: https://github.com/OWNER/REPO/pull/N, head: {ref, label}, base: {ref}, ...}`;
 * 422 if a pull for that head exists, like GitHub). A wrong or missing token → 401. Anything else → 404.
 */
export async function startFakeGitHub(options: { token?: string } = {}): Promise<FakeGitHub> {
  const token = options.token ?? 'ghp_fake_test_token_0123456789';
  const pulls: FakePull[] = [];
  const calls: FakeGitHubCall[] = [];
  let failures: { status: number; remaining: number } | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const call: FakeGitHubCall = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body, status: 0 };
    calls.push(call);
    const send = (status: number, payload: unknown) => {
      call.status = status;
      const text = JSON.stringify(payload);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };

    if (failures && failures.remaining > 0) {
      failures.remaining--;
      return send(failures.status, { message: `fake-github: scripted HTTP ${failures.status}` });
    }
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${token}` && auth !== `Bearer ${token}`) {
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }

    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/?$/.exec(url.pathname);
    if (!match) return send(404, { message: 'Not Found' });
    const owner = decodeURIComponent(match[1]);
    const repo = decodeURIComponent(match[2]);

    if (req.method === 'GET') {
      const head = url.searchParams.get('head');
      const found = pulls.filter((p) => p.owner === owner && p.repo === repo && (!head || `${owner}:${p.head}` === head));
      return send(200, found.map(toJson));
    }
    if (req.method === 'POST') {
      const input = (body ?? {}) as { title?: string; head?: string; base?: string; body?: string };
      if (!input.title || !input.head || !input.base) {
        return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'missing_field' }] });
      }
      const head = input.head.includes(':') ? input.head.split(':')[1] : input.head;
      if (pulls.some((p) => p.owner === owner && p.repo === repo && p.head === head)) {
        return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${head}.` }] });
      }
      const number = pulls.length + 1;
      const pull: FakePull = { number, owner, repo, title: input.title, body: input.body ?? null, head, base: input.base, html_url: `https://github.com/${owner}/${repo}/pull/${number}` };
      pulls.push(pull);
      return send(201, toJson(pull));
    }
    return send(404, { message: 'Not Found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiUrl: `http://127.0.0.1:${port}`,
    token,
    pulls,
    calls,
    failNext(status, count = 1) {
      failures = { status, remaining: count };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toJson(p: FakePull) {
  return {
    id: 1000 + p.number,
    number: p.number,
    state: 'open',
    title: p.title,
    body: p.body,
    url: `https://api.github.com/repos/${p.owner}/${p.repo}/pulls/${p.number}`,
    html_url: p.html_url,
    head: { ref: p.head, label: `${p.owner}:${p.head}` },
    base: { ref: p.base, label: `${p.owner}:${p.base}` },
  };
}
