import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseCases } from '../../test/support/databases';
import { Database } from './database';
import { migratePostgres } from './migrations';

describe.each(databaseCases())('Database on $name', ({ name, open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db.close());

  it('binds parameters', async () => {
    const rows = await db.query<{ x: number; s: string }>('SELECT $1::int + 1 AS x, $2::text AS s', [41, "it's"]);
    expect(rows).toEqual([{ x: 42, s: "it's" }]);
  });

  it('commits a transaction and rolls one back when it throws', async () => {
    const table = `t_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await db.query(`CREATE TABLE ${table} (v int)`);
    await db.transaction((tx) => tx.query(`INSERT INTO ${table} VALUES (1)`));
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (2)`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query(`SELECT v FROM ${table}`)).toEqual([{ v: 1 }]);
    await db.query(`DROP TABLE ${table}`);
  });

  it('delivers NOTIFY to a listener', async () => {
    const channel = `chan_${Math.floor(Math.random() * 1e9)}`;
    const received = new Promise<string>((resolve) => {
      void db.listen(channel, resolve).then((unlisten) => {
        void db.query('SELECT pg_notify($1, $2)', [channel, 'hello']);
        return unlisten;
      });
    });
    await expect(received).resolves.toBe('hello');
  });

  // PGlite runs in-process: there is no connection to drop.
  (name === 'postgres' ? it : it.skip)('keeps listening after the server drops the LISTEN connection', async () => {
    const channel = `chan_${Math.floor(Math.random() * 1e9)}`;
    const payloads: string[] = [];
    let seen: () => void = () => undefined;
    const unlisten = await db.listen(channel, (p) => {
      payloads.push(p);
      seen();
    });
    const next = () => new Promise<void>((r) => (seen = r));
    const [{ pid }] = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`]);
    const reconnected = next();
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await reconnected;
    expect(payloads).toEqual(['']); // the "you may have missed something" call after reconnecting
    const delivered = next();
    await db.query('SELECT pg_notify($1, $2)', [channel, 'after']);
    await delivered;
    expect(payloads).toEqual(['', 'after']);
    await unlisten();
  });

  it('applies nothing on a second run, and refuses an edited migration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docent-mig-'));
    const table = `m_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    // A private migrations table name is not possible, so use versions far above the real ones.
    writeFileSync(join(dir, '9001_test.sql'), `CREATE TABLE ${table} (v int);\nINSERT INTO ${table} VALUES (1);\n`);
    expect(await migratePostgres(db, dir)).toEqual(['9001_test.sql']);
    expect(await migratePostgres(db, dir)).toEqual([]);
    writeFileSync(join(dir, '9001_test.sql'), `CREATE TABLE ${table} (v bigint);\n`);
    await expect(migratePostgres(db, dir)).rejects.toThrow(/edited after it was applied/);
    await db.query('DELETE FROM schema_migrations WHERE version = 9001');
    await db.query(`DROP TABLE ${table}`);
  });
});
