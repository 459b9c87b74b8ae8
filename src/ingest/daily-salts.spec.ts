import { databaseCases } from '../../test/support/databases';
import { Database } from '../database/database';
import { DailySalts } from './daily-salts';
import { SaltsRepository } from './salts.repository';

describe.each(databaseCases())('DailySalts on $name', ({ open }) => {
  let db: Database;
  let repo: SaltsRepository;
  let clock: number;
  const at = (iso: string) => (clock = Date.parse(iso));
  const salts = () => new DailySalts(repo, () => clock);

  beforeAll(async () => {
    db = await open();
    repo = new SaltsRepository(db);
  });
  afterAll(() => db.close());
  // Far-future days keep reruns against a shared server from meeting each other's rows.
  beforeEach(() => db.query("DELETE FROM ingest_salts WHERE day >= '2300-01-01'"));

  it('creates one salt per UTC day on demand, shared by every instance', async () => {
    at('2301-03-10T12:00:00Z');
    const [a, b] = [salts(), salts()];
    const [fromA, fromB] = await Promise.all([a.saltFor('2301-03-10'), b.saltFor('2301-03-10')]);
    expect(fromA).toMatch(/^[0-9a-f]{64}$/);
    expect(fromB).toBe(fromA);
    expect(await a.saltFor('2301-03-09')).not.toBe(fromA);
    expect(await repo.days()).toEqual(expect.arrayContaining(['2301-03-09', '2301-03-10']));
  });

  it('serves yesterday, then destroys a day\'s salt 48 h after the day began', async () => {
    const s = salts();
    at('2301-03-10T23:00:00Z');
    const monday = await s.saltFor('2301-03-10');
    at('2301-03-11T23:59:59Z');
    expect(await s.saltFor('2301-03-10')).toBe(monday); // late hit from yesterday: same salt
    at('2301-03-12T00:00:01Z');
    expect(await s.saltFor('2301-03-10')).toBeUndefined();
    await s.saltFor('2301-03-12');
    expect((await repo.days()).filter((d) => d.startsWith('2301'))).toEqual(['2301-03-12']);
  });

  it('purges old salts even when no hit asks for them', async () => {
    at('2301-05-01T10:00:00Z');
    await salts().saltFor('2301-05-01');
    at('2301-05-03T00:00:00Z');
    await salts().purge();
    expect((await repo.days()).filter((d) => d.startsWith('2301-05'))).toEqual([]);
  });

  it('never hands out a one-off salt twice', () => {
    expect(DailySalts.oneOff()).not.toBe(DailySalts.oneOff());
  });
});
