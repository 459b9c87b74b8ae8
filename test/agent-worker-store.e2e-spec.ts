import { OutboxRepository } from '../src/webhooks/outbox.repository';
import { JobsRepository } from '../src/agent/jobs/jobs.repository';
import { JobQueueRepository } from '../src/agent/worker/job-queue.repository';
import { newId } from '../src/common/ids';
import { Database } from '../src/database/database';
import { migratePostgres } from '../src/database/migrations';
import { PgDatabase } from '../src/database/pg-database';
import { DatabaseCase, databaseCases } from './support/databases';

/**
 * Claims take any runnable job in the database, so on the shared server this suite works in a
 * schema of its own (dropped afterwards); PGlite is a fresh in-memory database anyway.
 */
async function openPrivate(c: DatabaseCase): Promise<{ db: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (c.name !== 'postgres' || !url) {
    const db = await c.open();
    return { db, drop: () => db.close() };
  }
  const schema = `queue_test_${newId('s').slice(2).toLowerCase()}`;
  const admin = new PgDatabase(url, 1);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  const db = new PgDatabase(`${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`, 20);
  await migratePostgres(db);
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

describe.each(databaseCases())('Agent job queue on $name', (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let jobs: JobsRepository;
  let queue: JobQueueRepository;
  let projectId: string;

  beforeAll(async () => {
    ({ db, drop } = await openPrivate(backend));
    jobs = new JobsRepository(db, new OutboxRepository());
    queue = new JobQueueRepository(db, new OutboxRepository());
    projectId = newId('prj');
    await db.query(`INSERT INTO projects (id, name) VALUES ($1, 'queue test')`, [projectId]);
  });
  afterAll(() => drop());

  // Every claim is checked against this test's own ids.
  async function newJob(prompt = 'do it'): Promise<string> {
    const id = newId('job');
    await db.transaction((tx) => jobs.insert(tx, { id, project_id: projectId, model: 'm', repository: null, ref: 'main', clone_url: null }, prompt));
    // Earlier than anything else runnable, so our claims find our jobs first.
    await db.query(`UPDATE agent_jobs SET run_after = now() - interval '1 day', created_at = created_at - interval '1 day' WHERE id = $1`, [id]);
    return id;
  }

  async function claimOwn(worker: string, ids: string[], leaseMs = 60_000): Promise<string | undefined> {
    const row = await queue.claim(worker, leaseMs);
    if (row && !ids.includes(row.id)) throw new Error(`claimed a job of another suite: ${row.id}`);
    return row?.id;
  }

  it('concurrent claims never hand the same job to two workers', async () => {
    const ids = await Promise.all([newJob(), newJob(), newJob()]);
    const claimed = await Promise.all(Array.from({ length: 6 }, (_, i) => claimOwn(`w${i}`, ids)));
    const got = claimed.filter(Boolean);
    expect(got.sort()).toEqual([...ids].sort());
    const rows = await db.query<{ locked_by: string }>('SELECT locked_by FROM agent_jobs WHERE id = ANY($1)', [ids]);
    expect(new Set(rows.map((r) => r.locked_by)).size).toBe(3);
  });

  it('a leased job is taken over only after its lease expires, and its running message runs again', async () => {
    const id = await newJob();
    expect(await claimOwn('dead', [id], 300)).toBe(id);
    const first = await queue.startNextMessage(id, 'dead');
    expect(first).toMatchObject({ seq: 1, status: 'running', attempts: 1 });
    expect(await claimOwn('other', [id])).toBeUndefined();
    await new Promise((r) => setTimeout(r, 400));
    expect(await claimOwn('other', [id])).toBe(id);
    expect(await queue.renew(id, 'dead', 1000)).toBe(false);
    expect(await queue.stillOurs(id, 'dead')).toBe(false);
    expect(await queue.stillOurs(id, 'other')).toBe(true);
    expect(await queue.startNextMessage(id, 'other')).toMatchObject({ seq: 1, attempts: 2 });
    // The dead worker's late write changes nothing.
    expect(await queue.completeMessage(id, 'dead', 1, { summary: 'late', prLink: 'https://x/pull/9', commitSha: null })).toBe('lost');
    expect(await queue.completeMessage(id, 'other', 1, { summary: 'ok', prLink: 'https://x/pull/1', commitSha: 'abc' })).toBe('settled');
    const [job] = await db.query<{ status: string; pr_link: string; locked_by: string | null }>('SELECT status, pr_link, locked_by FROM agent_jobs WHERE id = $1', [id]);
    expect(job).toEqual({ status: 'completed', pr_link: 'https://x/pull/1', locked_by: null });
  });

  it('a follow-up queued during a turn runs next under the same lease, with the history', async () => {
    const id = await newJob('first');
    await claimOwn('w', [id]);
    await queue.startNextMessage(id, 'w');
    await db.transaction(async (tx) => {
      await jobs.lock(tx, projectId, id);
      await jobs.addMessage(tx, id, 'second');
    });
    expect(await queue.completeMessage(id, 'w', 1, { summary: 'did first', prLink: null, commitSha: null })).toBe('next');
    const second = await queue.startNextMessage(id, 'w');
    expect(second).toMatchObject({ seq: 2, prompt: 'second' });
    expect(await queue.history(id, 2)).toEqual([{ prompt: 'first', summary: 'did first' }]);
    expect(await queue.completeMessage(id, 'w', 2, { summary: 'did second', prLink: null, commitSha: null })).toBe('settled');
    expect((await queue.job(id))?.status).toBe('completed');
  });

  it('a retry waits for its backoff; failing cancels what was queued behind', async () => {
    const id = await newJob();
    await claimOwn('w', [id]);
    const msg = await queue.startNextMessage(id, 'w');
    await queue.retryLater(id, 'w', msg!.seq, 60_000);
    expect(await claimOwn('w', [id])).toBeUndefined();
    await db.query(`UPDATE agent_jobs SET run_after = now() - interval '1 day' WHERE id = $1`, [id]);
    expect(await claimOwn('w', [id])).toBe(id);
    expect(await queue.startNextMessage(id, 'w')).toMatchObject({ seq: 1, attempts: 2 });
    await db.transaction(async (tx) => {
      await jobs.lock(tx, projectId, id);
      await jobs.addMessage(tx, id, 'behind');
    });
    await queue.fail(id, 'w', 1, 'The model is unavailable.');
    const job = await queue.job(id);
    expect(job).toMatchObject({ status: 'failed', error: 'The model is unavailable.', locked_by: null });
    const messages = await db.query('SELECT seq, status FROM agent_job_messages WHERE job_id = $1 ORDER BY seq', [id]);
    expect(messages).toEqual([{ seq: 1, status: 'failed' }, { seq: 2, status: 'cancelled' }]);
  });

  it('a released job (shutdown) is claimable at once and the attempt is refunded', async () => {
    const id = await newJob();
    await claimOwn('w', [id]);
    await queue.startNextMessage(id, 'w');
    await queue.release(id, 'w', 1, true);
    expect(await claimOwn('w2', [id])).toBe(id);
    expect(await queue.startNextMessage(id, 'w2')).toMatchObject({ seq: 1, attempts: 1 });
  });

  it('an archived job is not claimed and its turn is no longer wanted', async () => {
    const id = await newJob();
    await claimOwn('w', [id]);
    await queue.startNextMessage(id, 'w');
    await db.transaction(async (tx) => {
      await jobs.lock(tx, projectId, id);
      await jobs.archive(tx, id);
    });
    expect(await queue.stillOurs(id, 'w')).toBe(false);
    expect(await queue.completeMessage(id, 'w', 1, { summary: 's', prLink: null, commitSha: null })).toBe('settled');
    const job = await queue.job(id);
    expect(job).toMatchObject({ status: 'archived', locked_by: null });
    expect(await claimOwn('w', [id])).toBeUndefined();
  });
});
