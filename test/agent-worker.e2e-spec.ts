import { JobScheduler } from '../src/agent/worker/job-scheduler';
import { FakeGitHub, startFakeGitHub } from './support/fake-github';
import { byConversation, FakeOpenAI, ScriptStep, startFakeOpenAI } from './support/fake-openai';
import { BareRepo, createBareRepo } from './support/git-fixtures';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const API_KEY = 'sk-worker-test-key-8d2b41';

/** Resolves once `gate.open()` is called: holds a scripted model answer back. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('Agent worker with the model, git and GitHub stand-ins', () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let projectId: string;
  let apiKey: string;
  const slowFirstTurn = gate();

  // Each job's conversation is scripted by a keyword in its prompt.
  const script = (prompt: string): ScriptStep[] => {
    if (prompt.includes('EDIT-INTRO')) return [{ toolCalls: [{ name: 'edit_file', args: { path: 'docs/intro.md', old_string: 'Welcom', new_string: 'Welcome' } }] }, { text: 'Fix the typo in the intro' }];
    if (prompt.includes('ADD-FAQ')) return [{ toolCalls: [{ name: 'write_file', args: { path: 'docs/faq.md', content: '# FAQ\n' } }] }, { text: 'Add a FAQ page' }];
    if (prompt.includes('SLOW-ADD')) return [{ waitFor: slowFirstTurn.promise, toolCalls: [{ name: 'write_file', args: { path: 'docs/slow.md', content: 'slow\n' } }] }, { text: 'Add slow page' }];
    if (prompt.includes('NOTHING')) return [{ toolCalls: [{ name: 'read_file', args: { path: 'docs/intro.md' } }] }, { text: 'The intro is fine; nothing to change.' }];
    if (prompt.includes('FAIL-500')) return [{ status: 500 }];
    if (prompt.includes('HANG')) return [{ toolCalls: [{ name: 'write_file', args: { path: 'docs/hang.md', content: 'half\n' } }] }, { hang: true }];
    return [{ status: 400 }];
  };

  beforeAll(async () => {
    [model, github, repo] = await Promise.all([startFakeOpenAI(byConversation(script)), startFakeGitHub(), createBareRepo({ files: { 'docs/intro.md': '# Welcom\n' } })]);
    t = await startTestApp({
      WORKER: 'on',
      AGENT_BASE_URL: model.baseURL,
      AGENT_MODEL: 'fake-model',
      AGENT_API_KEY: API_KEY,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: github.token,
      AGENT_LEASE_MS: '2000',
      AGENT_RETRY_BACKOFF_MS: '100',
    });
    ({ projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs', cloneUrl: repo.cloneUrl }));
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([model.close(), github.close()]);
    repo.remove();
  });

  const create = (prompt: string) => t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt } });
  const followUp = (id: string, prompt: string) => t.request('POST', `/v2/agent/${projectId}/job/${id}/message`, { token: apiKey, body: { prompt } });
  const get = async (id: string) => (await t.request('GET', `/v2/agent/${projectId}/job/${id}`, { token: apiKey })).body;
  const settled = (id: string) => until(`job ${id} to settle`, async () => {
    const job = await get(id);
    return job.status !== 'active' && job;
  });
  const postsFor = (id: string) => github.calls.filter((c) => c.method === 'POST' && (c.body as { head?: string }).head === `docent/${id}`).length;

  let editedJob: { id: string; prLink: string };

  it('1: create → active → completed with the pull request; the branch has the edited file', async () => {
    const res = await create('EDIT-INTRO: fix the typo in the intro');
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('active');
    const job = await settled(res.body.id);
    expect(job).toMatchObject({ status: 'completed', error: null, model: 'fake-model', archivedAt: null });
    const pull = github.pulls.find((p) => p.head === `docent/${job.id}`);
    expect(pull).toBeDefined();
    expect(job.prLink).toBe(pull!.html_url);
    expect(pull).toMatchObject({ owner: 'acme', repo: 'docs', base: 'main' });
    expect(await repo.readFile(`docent/${job.id}`, 'docs/intro.md')).toBe('# Welcome\n');
    expect(await repo.readFile('main', 'docs/intro.md')).toBe('# Welcom\n');
    expect(model.headers.every((h) => h.authorization === `Bearer ${API_KEY}`)).toBe(true);
    editedJob = job;
  });

  it('2: a job that changes nothing → completed with prLink null', async () => {
    const res = await create('NOTHING: check the intro');
    const job = await settled(res.body.id);
    expect(job).toMatchObject({ status: 'completed', prLink: null, error: null });
    expect(postsFor(job.id)).toBe(0);
  });

  it('2: a follow-up after completed → active → completed: new commit on the same branch, same pull request, no second POST', async () => {
    const branch = `docent/${editedJob.id}`;
    const commitsBefore = (await repo.log(branch)).length;
    const res = await followUp(editedJob.id, 'ADD-FAQ: add a FAQ page');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: editedJob.id, status: 'active' });
    const job = await settled(editedJob.id);
    expect(job).toMatchObject({ status: 'completed', prLink: editedJob.prLink, error: null });
    expect(job.updatedAt > res.body.createdAt).toBe(true);
    const log = await repo.log(branch);
    expect(log).toHaveLength(commitsBefore + 1);
    expect(await repo.readFile(branch, 'docs/faq.md')).toBe('# FAQ\n');
    expect(await repo.readFile(branch, 'docs/intro.md')).toBe('# Welcome\n');
    expect(postsFor(editedJob.id)).toBe(1);
  });

  it('a follow-up while active is queued behind the current turn; both turns land on the branch in order', async () => {
    const res = await create('SLOW-ADD: add a slow page');
    const id = res.body.id;
    const queued = await followUp(id, 'ADD-FAQ: and a FAQ');
    expect(queued.status).toBe(200);
    expect(queued.body.status).toBe('active');
    slowFirstTurn.open();
    const job = await settled(id);
    expect(job.status).toBe('completed');
    const log = await repo.log(`docent/${id}`);
    expect(log.slice(0, 2).map((c) => c.subject)).toEqual(['Add a FAQ page', 'Add slow page']);
    expect(postsFor(id)).toBe(1);
  });

  it('3: the model answers 500 three times → failed with an error; a follow-up revives the job', async () => {
    const before = model.requests.length;
    const res = await create('FAIL-500: anything');
    const job = await settled(res.body.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/500/);
    expect(job.error).not.toContain(API_KEY);
    expect(model.requests.length - before).toBe(3);

    const revived = await followUp(job.id, 'ADD-FAQ: try something else');
    expect(revived.body).toMatchObject({ status: 'active', error: null });
    const done = await settled(job.id);
    expect(done).toMatchObject({ status: 'completed', error: null, prLink: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/) });
  }, 60_000);

  it('4: archive while the model is mid-turn → archived, archivedAt set, nothing pushed; a follow-up → 409', async () => {
    const before = model.requests.length;
    const res = await create('HANG: write then think forever');
    const id = res.body.id;
    await model.waitForRequests(before + 2); // the write_file step ran; the model now hangs
    const archived = await t.request('POST', `/v2/agent/${projectId}/job/${id}/archive`, { token: apiKey });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.stringMatching(ISO_MS), prLink: null });
    const scheduler = t.app.get(JobScheduler);
    await until('the worker to let the job go', async () => !scheduler.running.includes(id));
    expect(await get(id)).toMatchObject({ status: 'archived', archivedAt: archived.body.archivedAt });
    expect(await repo.branches()).not.toContain(`docent/${id}`);
    expect(postsFor(id)).toBe(0);
    const refused = await followUp(id, 'EDIT-INTRO: more');
    expect(refused.status).toBe(409);
    expect(model.requests.length - before).toBe(2);
  });
});

describe('Agent worker with no model configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ WORKER: 'on' });
  });
  afterAll(() => t.close());

  it('3: the job fails with a clear error; `model` is an empty string', async () => {
    const { projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs' });
    const res = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'anything' } });
    expect(res.status).toBe(201);
    expect(res.body.model).toBe('');
    const job = await until('the job to fail', async () => {
      const body = (await t.request('GET', `/v2/agent/${projectId}/job/${res.body.id}`, { token: apiKey })).body;
      return body.status !== 'active' && body;
    });
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/no model configured/i) });
  });

  it('a project without a repository: the job fails with an error saying so', async () => {
    const { projectId, apiKey } = await t.createProject({});
    const res = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'anything' } });
    expect(res.status).toBe(201);
    expect(res.body.source).toEqual({ repository: '', ref: 'main' });
    const job = await until('the job to fail', async () => {
      const body = (await t.request('GET', `/v2/agent/${projectId}/job/${res.body.id}`, { token: apiKey })).body;
      return body.status !== 'active' && body;
    });
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/no repository/i) });
  });
});
