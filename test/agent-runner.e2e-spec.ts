import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Global, Logger, LoggerService, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Octokit } from '@octokit/rest';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Config, loadConfig } from '../src/config/config';
import { AgentRunner, AgentTurnError, TurnAborted, TurnInput } from '../src/agent/runner/agent-runner';
import { AgentRunnerModule } from '../src/agent/runner/agent-runner.module';
import { FakeGitHub, startFakeGitHub } from './support/fake-github';
import { byConversation, FakeOpenAI, ScriptStep, startFakeOpenAI } from './support/fake-openai';
import { BareRepo, createBareRepo } from './support/git-fixtures';

describe('stand-ins', () => {
  it('fake OpenAI plays tool calls then text through the AI SDK', async () => {
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'echo', args: { x: 'hi' } }] }, { delayMs: 20 }, { text: 'done' }]);
    const provider = createOpenAICompatible({ name: 't', baseURL: fake.baseURL, apiKey: 'k' });
    const seen: string[] = [];
    const result = await generateText({
      model: provider('m'),
      prompt: 'go',
      tools: { echo: tool({ inputSchema: z.object({ x: z.string() }), execute: async ({ x }) => (seen.push(x), `echo ${x}`) }) },
      stopWhen: stepCountIs(5),
    });
    expect(seen).toEqual(['hi']);
    expect(result.text).toBe('done');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0].stream).toBeFalsy();
    expect(fake.headers[0].authorization).toBe('Bearer k');
    await fake.close();
  });

  it('fake OpenAI byConversation and streaming', async () => {
    const fake = await startFakeOpenAI(byConversation((prompt) => [{ toolCalls: [{ name: 'echo', args: { x: prompt } }] }, { text: `done ${prompt}` }]));
    const provider = createOpenAICompatible({ name: 't', baseURL: fake.baseURL, apiKey: 'k' });
    const tools = { echo: tool({ inputSchema: z.object({ x: z.string() }), execute: async ({ x }) => `echo ${x}` }) };
    const [a, b] = await Promise.all(['a', 'b'].map((p) => generateText({ model: provider('m'), prompt: p, tools, stopWhen: stepCountIs(5) })));
    expect([a.text, b.text]).toEqual(['done a', 'done b']);
    const s = streamText({ model: provider('m'), prompt: 'c', tools, stopWhen: stepCountIs(5) });
    expect(await s.text).toBe('done c');
    await fake.close();
  });

  it('fake OpenAI byConversation holds an answer behind a pause-only step, then plays on', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fake = await startFakeOpenAI(byConversation(() => [{ waitFor: gate }, { toolCalls: [{ name: 'echo', args: { x: 'y' } }] }, { text: 'after' }]));
    const provider = createOpenAICompatible({ name: 't', baseURL: fake.baseURL, apiKey: 'k' });
    const tools = { echo: tool({ inputSchema: z.object({ x: z.string() }), execute: async ({ x }) => `echo ${x}` }) };
    const run = generateText({ model: provider('m'), prompt: 'p', tools, stopWhen: stepCountIs(5) });
    await fake.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.requests).toHaveLength(1);
    release();
    expect((await run).text).toBe('after');
    expect(fake.requests).toHaveLength(2);
    await fake.close();
  });

  it('bare repo and fake GitHub through Octokit', async () => {
    const repo = await createBareRepo({ files: { 'docs/intro.md': 'hello\n' } });
    expect(await repo.readFile('main', 'docs/intro.md')).toBe('hello\n');
    expect(await repo.branches()).toEqual(['main']);
    await repo.commit('feature', { 'a.md': 'x' }, 'Add a\n\nbody text');
    expect(await repo.branches()).toEqual(['feature', 'main']);
    const log = await repo.log('feature');
    expect(log.map((c) => c.subject)).toEqual(['Add a', 'Initial docs']);
    expect(log[0].body).toBe('body text');
    expect(await repo.readFile('nope', 'a.md')).toBeNull();
    repo.remove();

    const gh = await startFakeGitHub();
    const octokit = new Octokit({ baseUrl: gh.apiUrl, auth: gh.token });
    const empty = await octokit.rest.pulls.list({ owner: 'acme', repo: 'docs', head: 'acme:docent/job_1', state: 'all' });
    expect(empty.data).toEqual([]);
    const created = await octokit.rest.pulls.create({ owner: 'acme', repo: 'docs', head: 'docent/job_1', base: 'main', title: 't', body: 'b' });
    expect(created.data.html_url).toBe('https://github.com/acme/docs/pull/1');
    const found = await octokit.rest.pulls.list({ owner: 'acme', repo: 'docs', head: 'acme:docent/job_1', state: 'all' });
    expect(found.data.map((p) => p.number)).toEqual([1]);
    await expect(new Octokit({ baseUrl: gh.apiUrl, auth: 'wrong', log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } }).rest.pulls.list({ owner: 'acme', repo: 'docs' })).rejects.toMatchObject({ status: 401 });
    expect(gh.calls[0].authorization).toBe(`token ${gh.token}`);
    await gh.close();
  });
});

const API_KEY = 'sk-test-agent-key-5f3a9c1e';

/** Every line the runner logs, to prove no secret reaches one. */
class CapturingLogger implements LoggerService {
  lines: string[] = [];
  log = (m: unknown) => void this.lines.push(String(m));
  error = (m: unknown) => void this.lines.push(String(m));
  warn = (m: unknown) => void this.lines.push(String(m));
  debug = (m: unknown) => void this.lines.push(String(m));
  verbose = (m: unknown) => void this.lines.push(String(m));
}

const logs = new CapturingLogger();

async function buildRunner(env: Record<string, string>): Promise<{ runner: AgentRunner; config: Config; close: () => Promise<void> }> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  @Global()
  @Module({ providers: [{ provide: Config, useValue: config }], exports: [Config] })
  class TestConfigModule {}
  const moduleRef = await Test.createTestingModule({ imports: [TestConfigModule, AgentRunnerModule] }).compile();
  // compile() resets Nest's logger; keep capturing.
  Logger.overrideLogger(logs);
  return { runner: moduleRef.get(AgentRunner), config, close: () => moduleRef.close() };
}

describe('AgentRunner against the stand-ins', () => {
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let dataDir: string;
  let runner: AgentRunner;
  let closeRunner: () => Promise<void>;
  let seq = 0;

  const project = () => ({ repository: 'https://github.com/acme/docs', ref: 'main', cloneUrl: repo.cloneUrl });
  const turn = (overrides: Partial<TurnInput> = {}): TurnInput => ({
    jobId: `job_runner${++seq}`,
    project: project(),
    prompt: 'Fix the typo in the intro',
    history: [],
    prLink: null,
    signal: new AbortController().signal,
    stillWanted: async () => true,
    ...overrides,
  });
  const posts = () => github.calls.filter((c) => c.method === 'POST');
  const gets = () => github.calls.filter((c) => c.method === 'GET');
  const edit = (path: string, oldString: string, newString: string): ScriptStep => ({ toolCalls: [{ name: 'edit_file', args: { path, old_string: oldString, new_string: newString } }] });

  beforeAll(async () => {
    Logger.overrideLogger(logs);
    model = await startFakeOpenAI();
    github = await startFakeGitHub();
    repo = await createBareRepo({ files: { 'docs/intro.md': '# Intro\n\nTeh docs explain everything.\n', 'docs/setup.md': '# Setup\n\nRun the installer.\n' } });
    dataDir = mkdtempSync(join(tmpdir(), 'docent-runner-'));
    ({ runner, close: closeRunner } = await buildRunner({
      DATA_DIR: dataDir,
      AGENT_BASE_URL: model.baseURL,
      AGENT_MODEL: 'test-model',
      AGENT_API_KEY: API_KEY,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: github.token,
      AGENT_TURN_TIMEOUT_MS: '20000',
    }));
  });

  afterAll(async () => {
    await closeRunner();
    await model.close();
    await github.close();
    repo.remove();
    rmSync(dataDir, { recursive: true, force: true });
    const all = logs.lines.join('\n');
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(github.token);
    Logger.overrideLogger(new Logger());
  });

  it('edits, commits on docent/<job>, pushes, and opens the pull request', async () => {
    model.setScript([
      { toolCalls: [{ name: 'read_file', args: { path: 'docs/intro.md' } }] },
      edit('docs/intro.md', 'Teh docs', 'The docs'),
      { text: 'Fix a typo in the intro\n\n"Teh" became "The" in docs/intro.md.' },
    ]);
    const before = model.requests.length;
    const input = turn();
    const result = await runner.runTurn(input);

    const branch = `docent/${input.jobId}`;
    expect(await repo.readFile(branch, 'docs/intro.md')).toBe('# Intro\n\nThe docs explain everything.\n');
    expect(await repo.readFile('main', 'docs/intro.md')).toBe('# Intro\n\nTeh docs explain everything.\n');
    const [commit, parent] = await repo.log(branch);
    expect(commit).toMatchObject({ sha: result.commitSha, subject: 'Fix a typo in the intro', body: 'Fix a typo in the intro\n\n"Teh" became "The" in docs/intro.md.', authorName: 'Docent', authorEmail: 'docent@localhost' });
    expect(parent.subject).toBe('Initial docs');

    expect(result).toEqual({ summary: 'Fix a typo in the intro\n\n"Teh" became "The" in docs/intro.md.', prLink: 'https://github.com/acme/docs/pull/1', changed: true, commitSha: commit.sha });
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ owner: 'acme', repo: 'docs', head: branch, base: 'main', title: 'Fix a typo in the intro', body: result.summary });
    expect(gets()[0].url).toBe(`/repos/acme/docs/pulls?head=${encodeURIComponent(`acme:${branch}`)}&state=all`);
    expect(posts()).toHaveLength(1);
    expect(posts()[0].authorization).toBe(`token ${github.token}`);

    // The model saw the six tools, the prompt, the tool results, and our key.
    const first = model.requests[before];
    expect(first.model).toBe('test-model');
    expect(first.tools!.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(['delete_file', 'edit_file', 'list_files', 'read_file', 'search_files', 'write_file']);
    expect(first.messages[first.messages.length - 1]).toEqual({ role: 'user', content: 'Fix the typo in the intro' });
    expect(JSON.stringify(model.requests[before + 1].messages)).toContain('Teh docs explain everything.');
    expect(JSON.stringify(model.requests[before + 2].messages)).toContain('Edited docs/intro.md.');
    expect(model.headers[before].authorization).toBe(`Bearer ${API_KEY}`);
    // The worktree is gone after the turn.
    expect(readdirSync(join(dataDir, 'git', 'worktrees'))).toEqual([]);
  });

  it('a turn that changes nothing pushes nothing and opens no pull request', async () => {
    model.setScript([{ toolCalls: [{ name: 'list_files', args: {} }] }, { text: 'The docs are already correct; nothing to change.' }]);
    const callsBefore = github.calls.length;
    const input = turn({ prompt: 'Check the docs' });
    const result = await runner.runTurn(input);
    expect(result).toEqual({ summary: 'The docs are already correct; nothing to change.', prLink: null, changed: false, commitSha: null });
    expect(await repo.branches()).not.toContain(`docent/${input.jobId}`);
    expect(github.calls.length).toBe(callsBefore);
  });

  it('a follow-up commits on the same branch and reuses the pull request', async () => {
    const jobId = `job_followup${++seq}`;
    model.setScript([edit('docs/intro.md', 'Teh docs', 'The docs'), { text: 'Fix the intro typo' }]);
    const first = await runner.runTurn(turn({ jobId }));
    const postsBefore = posts().length;
    expect(first.prLink).toBe(github.pulls[github.pulls.length - 1].html_url);

    model.setScript([edit('docs/setup.md', 'Run the installer.', 'Run the installer, then restart.'), { text: 'Mention the restart in setup' }]);
    const requestsBefore = model.requests.length;
    const second = await runner.runTurn(turn({ jobId, prompt: 'Also mention the restart', history: [{ prompt: 'Fix the typo in the intro', summary: first.summary }], prLink: first.prLink }));

    const branch = `docent/${jobId}`;
    const log = await repo.log(branch);
    expect(log.map((c) => c.subject)).toEqual(['Mention the restart in setup', 'Fix the intro typo', 'Initial docs']);
    expect(log[0].sha).toBe(second.commitSha);
    expect(log[1].sha).toBe(first.commitSha);
    expect(await repo.readFile(branch, 'docs/intro.md')).toContain('The docs');
    expect(await repo.readFile(branch, 'docs/setup.md')).toContain('then restart');
    expect(second.prLink).toBe(first.prLink);
    expect(second.changed).toBe(true);
    expect(posts().length).toBe(postsBefore);
    expect(gets()[gets().length - 1].url).toContain(encodeURIComponent(`acme:${branch}`));
    // The model got the earlier turn as conversation.
    expect(model.requests[requestsBefore].messages.slice(1)).toEqual([
      { role: 'user', content: 'Fix the typo in the intro' },
      { role: 'assistant', content: 'Fix the intro typo' },
      { role: 'user', content: 'Also mention the restart' },
    ]);

    // A third turn that changes nothing keeps the pull request.
    model.setScript([{ text: 'Nothing more to do.' }]);
    const third = await runner.runTurn(turn({ jobId, prompt: 'Anything else?', prLink: second.prLink }));
    expect(third).toMatchObject({ prLink: first.prLink, changed: false, commitSha: null });
    expect((await repo.log(branch)).length).toBe(3);
    expect(posts().length).toBe(postsBefore);
  });

  it('tool refusals reach the model as results, and the turn goes on', async () => {
    model.setScript([
      { toolCalls: [{ name: 'read_file', args: { path: '../x' } }, { name: 'read_file', args: { path: '/etc/passwd' } }, { name: 'write_file', args: { path: '.git/config', content: 'x' } }] },
      { text: 'I could not reach those files.' },
    ]);
    const before = model.requests.length;
    const result = await runner.runTurn(turn());
    const toolMessages = model.requests[before + 1].messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(toolMessages).toHaveLength(3);
    expect(toolMessages[0]).toMatch(/Error: .*"\.\."/);
    expect(toolMessages[1]).toMatch(/Error: .*absolute path/);
    expect(toolMessages[2]).toMatch(/Error: .*\.git/);
    expect(result.changed).toBe(false);
  });

  it('two jobs at once on the same repository both land', async () => {
    model.setScript(
      byConversation((prompt) => [
        { toolCalls: [{ name: 'write_file', args: { path: `docs/${prompt}.md`, content: `# ${prompt}\n` } }], delayMs: 50 },
        { text: `Add ${prompt}` },
      ]),
    );
    const [a, b] = [turn({ prompt: 'alpha' }), turn({ prompt: 'beta' })];
    const results = await Promise.all([runner.runTurn(a), runner.runTurn(b)]);
    expect(await repo.readFile(`docent/${a.jobId}`, 'docs/alpha.md')).toBe('# alpha\n');
    expect(await repo.readFile(`docent/${b.jobId}`, 'docs/beta.md')).toBe('# beta\n');
    expect(await repo.readFile(`docent/${a.jobId}`, 'docs/beta.md')).toBeNull();
    expect(new Set(results.map((r) => r.prLink)).size).toBe(2);
  });

  it('a model answering HTTP 500 three times fails the turn', async () => {
    model.setScript([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const before = model.requests.length;
    const input = turn();
    const error = await runner.runTurn(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentTurnError);
    expect(error).toMatchObject({ userMessage: 'The model endpoint answered HTTP 500 three times.', retryable: false });
    expect(model.requests.length - before).toBe(3);
    expect(await repo.branches()).not.toContain(`docent/${input.jobId}`);
  }, 30_000);

  it('a model refusing the key fails the turn without the key in the message', async () => {
    model.setScript([{ status: 401 }]);
    const error = (await runner.runTurn(turn()).catch((e: unknown) => e)) as AgentTurnError;
    expect(error).toBeInstanceOf(AgentTurnError);
    expect(error.userMessage).toMatch(/^The model endpoint answered HTTP 401/);
    expect(error.userMessage).not.toContain(API_KEY);
  });

  it('archive mid-turn (signal) stops the turn and pushes nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    model.setScript([edit('docs/intro.md', 'Teh docs', 'The docs'), { hang: true }, { waitFor: gate }, { text: 'never' }]);
    const before = model.requests.length;
    const controller = new AbortController();
    const input = turn({ signal: controller.signal });
    const running = runner.runTurn(input);
    await model.waitForRequests(before + 2);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(TurnAborted);
    release();
    expect(await repo.branches()).not.toContain(`docent/${input.jobId}`);
    expect(github.pulls.some((p) => p.head === `docent/${input.jobId}`)).toBe(false);
    expect(readdirSync(join(dataDir, 'git', 'worktrees'))).toEqual([]);
  });

  it('a job no longer wanted between steps stops before pushing', async () => {
    model.setScript([edit('docs/intro.md', 'Teh docs', 'The docs'), { text: 'Fixed' }]);
    let checks = 0;
    const input = turn({ stillWanted: async () => ++checks < 3 });
    await expect(runner.runTurn(input)).rejects.toBeInstanceOf(TurnAborted);
    expect(checks).toBe(3);
    expect(await repo.branches()).not.toContain(`docent/${input.jobId}`);
  });

  it('a model that never stops calling tools hits the step cap', async () => {
    const { runner: capped, close } = await buildRunner({ DATA_DIR: dataDir, AGENT_BASE_URL: model.baseURL, AGENT_MODEL: 'm', AGENT_MAX_STEPS: '2' });
    model.setScript([{ toolCalls: [{ name: 'list_files', args: {} }] }, { toolCalls: [{ name: 'list_files', args: {} }] }, { text: 'late' }]);
    await expect(capped.runTurn(turn())).rejects.toMatchObject({ userMessage: 'The agent did not finish within 2 steps (AGENT_MAX_STEPS).', retryable: false });
    await close();
  });

  it('a turn over its time limit fails', async () => {
    const { runner: hurried, close } = await buildRunner({ DATA_DIR: dataDir, AGENT_BASE_URL: model.baseURL, AGENT_MODEL: 'm', AGENT_TURN_TIMEOUT_MS: '1500' });
    model.setScript([{ hang: true }]);
    await expect(hurried.runTurn(turn())).rejects.toMatchObject({ userMessage: 'The turn did not finish within 1500 ms (AGENT_TURN_TIMEOUT_MS).', retryable: false });
    await close();
  });

  it('GitHub refusing the token fails the turn with a clear error and no token in it', async () => {
    const { runner: badToken, close } = await buildRunner({ DATA_DIR: dataDir, AGENT_BASE_URL: model.baseURL, AGENT_MODEL: 'm', GITHUB_API_URL: github.apiUrl, GITHUB_TOKEN: 'ghp_wrong_token_123456' });
    model.setScript([edit('docs/intro.md', 'Teh docs', 'The docs'), { text: 'Fixed' }]);
    const error = (await badToken.runTurn(turn()).catch((e: unknown) => e)) as AgentTurnError;
    expect(error).toBeInstanceOf(AgentTurnError);
    expect(error.userMessage).toBe('GitHub answered HTTP 401 when asked to look up the pull request for acme/docs. Check GITHUB_TOKEN.');
    expect(error.retryable).toBe(false);
    expect(logs.lines.join('\n')).toContain('GitHub answered HTTP 401');
    expect(logs.lines.join('\n')).not.toContain('ghp_wrong_token_123456');
    await close();
  });

  it('a repository that is not a GitHub URL gets its branch pushed but no pull request', async () => {
    model.setScript([edit('docs/intro.md', 'Teh docs', 'The docs'), { text: 'Fixed' }]);
    const callsBefore = github.calls.length;
    const input = turn({ project: { repository: null, ref: 'main', cloneUrl: repo.cloneUrl } });
    const result = await runner.runTurn(input);
    expect(result.prLink).toBeNull();
    expect(result.changed).toBe(true);
    expect(result.summary).toMatch(/^Fixed\n\n\(No pull request opened/);
    expect(await repo.readFile(`docent/${input.jobId}`, 'docs/intro.md')).toContain('The docs');
    expect(github.calls.length).toBe(callsBefore);
  });

  it('git over http(s) to the code host carries the token in a header, never in the URL or the error', async () => {
    const seen: Array<{ url: string; authorization?: string }> = [];
    const host = createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const token = 'ghp_header_only_token_42';
    const { runner: remote, close } = await buildRunner({ DATA_DIR: dataDir, AGENT_BASE_URL: model.baseURL, AGENT_MODEL: 'm', GITHUB_API_URL: origin, GITHUB_TOKEN: token });
    model.setScript([{ text: 'unused' }]);
    const error = (await remote.runTurn(turn({ project: { repository: `${origin}/acme/docs`, ref: 'main', cloneUrl: `${origin}/acme/docs.git` } })).catch((e: unknown) => e)) as AgentTurnError;
    await close();
    await new Promise((r) => host.close(r));

    expect(error).toBeInstanceOf(AgentTurnError);
    expect(error.userMessage).toMatch(/^Could not clone the repository: /);
    expect(error.userMessage).not.toContain(token);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0].url).toBe('/acme/docs.git/info/refs?service=git-upload-pack');
    expect(seen.every((r) => r.authorization === `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`)).toBe(true);
    expect(seen.every((r) => !r.url.includes(token))).toBe(true);
  });

  it('git to any other host gets no token', async () => {
    const seen: Array<string | undefined> = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const cloneUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/acme/docs.git`;
    model.setScript([{ text: 'unused' }]);
    await expect(runner.runTurn(turn({ project: { ...project(), cloneUrl } }))).rejects.toBeInstanceOf(AgentTurnError);
    await new Promise((r) => other.close(r));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((a) => a === undefined)).toBe(true);
  });

  it('git runs with a minimal environment: no variable of the service reaches it, whatever the remote', async () => {
    // A git on PATH that records its environment, then runs the real one.
    const bin = mkdtempSync(join(tmpdir(), 'docent-gitenv-'));
    const dump = join(bin, 'env.txt');
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nenv >> '${dump}'\necho ---- >> '${dump}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const saved = { PATH: process.env.PATH, SECRET: process.env.DOCENT_TEST_SECRET };
    process.env.PATH = `${bin}:${process.env.PATH}`;
    process.env.DOCENT_TEST_SECRET = 'must-not-leak-41';
    try {
      model.setScript([{ text: 'Nothing to do.' }]);
      await runner.runTurn(turn({ project: { repository: 'https://gitlab.com/acme/docs', ref: 'main', cloneUrl: repo.cloneUrl } }));
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.SECRET === undefined) delete process.env.DOCENT_TEST_SECRET;
      else process.env.DOCENT_TEST_SECRET = saved.SECRET;
    }
    const seen = readFileSync(dump, 'utf8');
    rmSync(bin, { recursive: true, force: true });
    expect(seen).toContain('PATH=');
    expect(seen).not.toContain('must-not-leak-41');
    expect(seen).not.toContain('DOCENT_TEST_SECRET');
  });

  it('a clone folder left by a killed clone is removed once stale; a fresh one is left alone', async () => {
    const mirrors = join(dataDir, 'git', 'mirrors');
    mkdirSync(join(mirrors, 'deadbeef.git.tmp-0a0b0c0d', 'objects'), { recursive: true });
    mkdirSync(join(mirrors, 'cafef00d.git.tmp-01020304', 'objects'), { recursive: true });
    const old = new Date(Date.now() - 60 * 60_000);
    for (const p of ['deadbeef.git.tmp-0a0b0c0d/objects', 'deadbeef.git.tmp-0a0b0c0d']) utimesSync(join(mirrors, p), old, old);
    model.setScript([{ text: 'Nothing to do.' }]);
    // A repository this runner has never mirrored, so the turn clones.
    const fresh = await createBareRepo({ files: { 'docs/a.md': '# A\n' } });
    await runner.runTurn(turn({ project: { ...project(), cloneUrl: fresh.cloneUrl } }));
    expect(existsSync(join(mirrors, 'deadbeef.git.tmp-0a0b0c0d'))).toBe(false);
    expect(existsSync(join(mirrors, 'cafef00d.git.tmp-01020304'))).toBe(true);
  });

  it('a ref lock left by a killed fetch is cleared once stale', async () => {
    model.setScript([{ text: 'Nothing to do.' }]);
    await runner.runTurn(turn());
    // The mirror of this repository (other tests add mirrors of their own): named by its clone URL's hash.
    const mirror = `${createHash('sha256').update(repo.cloneUrl).digest('hex').slice(0, 24)}.git`;
    const lock = join(dataDir, 'git', 'mirrors', mirror, 'refs', 'heads', 'main.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(lock, old, old);
    await repo.commit('main', { 'docs/news.md': '# News\n' }, 'Add news');

    model.setScript([{ toolCalls: [{ name: 'read_file', args: { path: 'docs/news.md' } }] }, { text: 'Read the news.' }]);
    const before = model.requests.length;
    await runner.runTurn(turn());
    expect(existsSync(lock)).toBe(false);
    expect(JSON.stringify(model.requests[before + 1].messages)).toContain('# News');
  });

  it('an unknown ref fails the turn clearly', async () => {
    model.setScript([{ text: 'unused' }]);
    await expect(runner.runTurn(turn({ project: { ...project(), ref: 'nope' } }))).rejects.toMatchObject({ userMessage: 'The branch "nope" does not exist in the repository.', retryable: false });
  });

  it('with no model configured the turn fails before touching git', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'docent-runner-nomodel-'));
    const { runner: unconfigured, close } = await buildRunner({ DATA_DIR: emptyDir, AGENT_MODEL: 'm' });
    const error = await unconfigured.runTurn(turn()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentTurnError);
    expect(error).toMatchObject({ userMessage: 'No model configured: set AGENT_BASE_URL and AGENT_MODEL.', retryable: false });
    expect(existsSync(join(emptyDir, 'git'))).toBe(false);
    await close();
    rmSync(emptyDir, { recursive: true, force: true });
  });
});
