import { OutboxRepository } from '../src/webhooks/outbox.repository';
import { JobsRepository } from '../src/agent/jobs/jobs.repository';
import { JobsService } from '../src/agent/jobs/jobs.service';
import { RATE_LIMIT, RateLimitRepository } from '../src/agent/jobs/rate-limit.repository';
import { JobRateLimited } from '../src/agent/jobs/jobs.service';
import { rateLimitHeaders } from '../src/agent/jobs/rate-limit.repository';
import { httpOf, InvalidTransition, NotFound } from '../src/common/domain-errors';
import { IdempotencyRepository } from '../src/common/idempotency.repository';
import { newId } from '../src/common/ids';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { ProjectsRepository } from '../src/projects/projects.repository';
import { ProjectsService } from '../src/projects/projects.service';
import { databaseCases } from './support/databases';

describe.each(databaseCases())('Agent job store on $name', ({ open }) => {
  let db: Database;
  let service: JobsService;
  let rateLimit: RateLimitRepository;
  const projects: string[] = [];

  beforeAll(async () => {
    db = await open();
    rateLimit = new RateLimitRepository(db);
    const config = loadConfig({ AGENT_MODEL: 'test-model' });
    service = new JobsService(db, config, new JobsRepository(db, new OutboxRepository()), rateLimit, new IdempotencyRepository(db), new ProjectsService(new ProjectsRepository(db)));
  });
  // The jobs made here stay active (no worker runs): remove them, so workers sharing the server never see them.
  afterAll(async () => {
    await db.query('DELETE FROM projects WHERE id = ANY($1)', [projects]);
    await db.close();
  });

  async function newProject(): Promise<string> {
    const id = newId('prj');
    projects.push(id);
    await db.query(`INSERT INTO projects (id, name, repository) VALUES ($1, 'store test', 'https://github.com/acme/docs')`, [id]);
    return id;
  }

  async function usage(projectId: string): Promise<number> {
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_rate_usage WHERE project_id = $1', [projectId]);
    return n;
  }

  it('admits exactly the budget out of 150 concurrent charges, and a rejection charges nothing', async () => {
    const projectId = await newProject();
    const results = await Promise.all(Array.from({ length: 150 }, () => db.transaction((tx) => rateLimit.consume(tx, projectId))));
    const admitted = results.filter((r) => r.allowed);
    expect(admitted).toHaveLength(RATE_LIMIT);
    expect(await usage(projectId)).toBe(RATE_LIMIT);
    expect(admitted.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => i));
    for (const r of results.filter((r) => !r.allowed)) {
      expect(r.remaining).toBe(0);
      expect(r.resetSeconds).toBeGreaterThan(3590);
      expect(r.resetSeconds).toBeLessThanOrEqual(3600);
    }
    expect(await rateLimit.peek(projectId)).toMatchObject({ limit: RATE_LIMIT, remaining: 0, allowed: false });
  });

  it('slides: uses older than an hour no longer count, and Reset says when the oldest leaves', async () => {
    const projectId = await newProject();
    expect(await rateLimit.peek(projectId)).toEqual({ limit: RATE_LIMIT, remaining: RATE_LIMIT, resetSeconds: 0, allowed: true });
    await db.query(`INSERT INTO agent_rate_usage (project_id, used_at) SELECT $1, now() - interval '61 minutes' FROM generate_series(1, 100)`, [projectId]);
    await db.query(`INSERT INTO agent_rate_usage (project_id, used_at) SELECT $1, now() - interval '50 minutes' FROM generate_series(1, 99)`, [projectId]);
    const first = await db.transaction((tx) => rateLimit.consume(tx, projectId));
    expect(first).toMatchObject({ allowed: true, remaining: 0 });
    expect(first.resetSeconds).toBeGreaterThan(595);
    expect(first.resetSeconds).toBeLessThanOrEqual(601);
    const second = await db.transaction((tx) => rateLimit.consume(tx, projectId));
    expect(second.allowed).toBe(false);
    // The expired uses were pruned.
    expect(await usage(projectId)).toBe(100);
  });

  it('creates exactly 100 of 150 concurrent jobs; the others get 429 with the headers', async () => {
    const projectId = await newProject();
    const results = await Promise.allSettled(Array.from({ length: 150 }, (_, i) => service.create(projectId, { prompt: `job ${i}` }, undefined)));
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as JobRateLimited] : []));
    expect(created).toHaveLength(100);
    expect(rejected).toHaveLength(50);
    for (const err of rejected) {
      expect(err).toBeInstanceOf(JobRateLimited);
      const { status, headers } = httpOf(err);
      expect(status).toBe(429);
      expect({ ...rateLimitHeaders(err.state), ...headers }).toMatchObject({ 'RateLimit-Limit': '100', 'RateLimit-Remaining': '0', 'Retry-After': expect.stringMatching(/^\d+$/) });
    }
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_jobs WHERE project_id = $1', [projectId]);
    expect(n).toBe(100);
    expect(await usage(projectId)).toBe(100);
  });

  it('the same Idempotency-Key sent concurrently makes one job and charges once', async () => {
    const projectId = await newProject();
    const results = await Promise.all(Array.from({ length: 8 }, () => service.create(projectId, { prompt: 'once' }, 'key-1')));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_jobs WHERE project_id = $1', [projectId]);
    expect(n).toBe(1);
    expect(await usage(projectId)).toBe(1);
  });

  it('a follow-up refused (unknown job, archived job) charges nothing and keeps no Idempotency-Key', async () => {
    const projectId = await newProject();
    const job = (await service.create(projectId, { prompt: 'first' }, undefined)).body;
    await expect(service.addMessage(projectId, 'job_nope', { prompt: 'x' }, 'k')).rejects.toBeInstanceOf(NotFound);
    await service.archive(projectId, job.id);
    await expect(service.addMessage(projectId, job.id, { prompt: 'x' }, 'k')).rejects.toBeInstanceOf(InvalidTransition);
    expect(await usage(projectId)).toBe(1);
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE project_id = $1', [projectId]);
    expect(n).toBe(0);
  });
});
