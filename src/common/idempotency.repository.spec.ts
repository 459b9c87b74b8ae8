import { databaseCases } from '../../test/support/databases';
import { Database } from '../database/database';
import { IdempotencyKeysPurge } from './idempotency-purge';
import { IdempotencyRepository } from './idempotency.repository';
import { newId } from './ids';

describe.each(databaseCases())('IdempotencyRepository on $name', ({ open }) => {
  let db: Database;
  let keys: IdempotencyRepository;
  let projectId: string;
  const age = (key: string, hours: number) =>
    db.query("UPDATE idempotency_keys SET created_at = now() - make_interval(hours => $3) WHERE project_id = $1 AND key = $2", [projectId, key, hours]);
  const stored = async () =>
    (await db.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE project_id = $1 ORDER BY key', [projectId])).map((r) => r.key);

  beforeAll(async () => {
    db = await open();
    keys = new IdempotencyRepository(db);
  });
  afterAll(() => db.close());
  // Each test its own project: reruns against a shared server never meet each other's keys.
  beforeEach(async () => {
    projectId = newId('prj');
    await db.query('INSERT INTO projects (id, name) VALUES ($1, $2)', [projectId, 'idempotency-spec']);
  });

  it('claims a new key; a retry of an unfinished claim goes ahead at once with the same firstSeenAt', async () => {
    const first = await keys.claim(projectId, 'ingest', 'k1');
    expect(first).toEqual({ state: 'claimed', firstSeenAt: expect.any(Date), resumed: false });
    // The first attempt "crashed": no complete, no release. The retry is not blocked.
    const retry = await keys.claim(projectId, 'ingest', 'k1');
    expect(retry).toEqual({ state: 'claimed', firstSeenAt: (first as { firstSeenAt: Date }).firstSeenAt, resumed: true });
    await keys.complete(projectId, 'ingest', 'k1', { accepted: 3 });
    expect(await keys.claim(projectId, 'ingest', 'k1')).toEqual({ state: 'replay', response: { accepted: 3 } });
    // Scopes and projects do not share keys.
    expect(await keys.claim(projectId, 'other', 'k1')).toMatchObject({ state: 'claimed', resumed: false });
  });

  it('a released claim starts afresh (a new firstSeenAt)', async () => {
    const first = (await keys.claim(projectId, 'ingest', 'k2')) as { firstSeenAt: Date };
    await keys.release(projectId, 'ingest', 'k2');
    await new Promise((r) => setTimeout(r, 5));
    const again = (await keys.claim(projectId, 'ingest', 'k2')) as { firstSeenAt: Date; resumed: boolean };
    expect(again.resumed).toBe(false);
    expect(again.firstSeenAt.getTime()).toBeGreaterThan(first.firstSeenAt.getTime());
  });

  it('a key past its 24 h is claimed anew, finished or not', async () => {
    await keys.claim(projectId, 'ingest', 'done');
    await keys.complete(projectId, 'ingest', 'done', { accepted: 1 });
    await keys.claim(projectId, 'ingest', 'stuck');
    await age('done', 25);
    await age('stuck', 25);
    expect(await keys.claim(projectId, 'ingest', 'done')).toMatchObject({ state: 'claimed', resumed: false });
    expect(await keys.claim(projectId, 'ingest', 'stuck')).toMatchObject({ state: 'claimed', resumed: false });
  });

  it('purges expired keys only, in batches, and two instances purging at once neither fail nor double-count', async () => {
    for (const key of ['old-1', 'old-2', 'old-3', 'fresh']) await keys.claim(projectId, 'ingest', key);
    await keys.complete(projectId, 'ingest', 'old-1', {});
    for (const key of ['old-1', 'old-2', 'old-3']) await age(key, 25);
    await age('fresh', 23);
    const purged = await Promise.all([new IdempotencyKeysPurge(keys).purge(), new IdempotencyKeysPurge(new IdempotencyRepository(db)).purge()]);
    // Other suites' expired keys on a shared server may be purged too; ours are exactly these three.
    expect(purged[0] + purged[1]).toBeGreaterThanOrEqual(3);
    expect(await stored()).toEqual(['fresh']);
    expect(await keys.purgeExpired(1)).toBe(0);
  });
});
