import { Clock } from '../src/common/clock';
import { newId } from '../src/common/ids';
import { Database } from '../src/database/database';
import { ReportContentBuilder } from '../src/reports/report-content';
import { ReportScheduler } from '../src/reports/report-scheduler';
import { ReportsRepository } from '../src/reports/reports.repository';
import { OutboxRepository } from '../src/webhooks/outbox.repository';
import { databaseCases } from './support/databases';

// Two schedulers, each with its own connection pool (on the real server: concurrent transactions race).
describe.each(databaseCases())('report scheduling is exactly once across instances ($name)', ({ name, open }) => {
  let dbs: Database[];
  let now = Date.parse('2031-03-01T10:00:30Z');
  beforeAll(async () => {
    // Embedded PGlite is one database per open(): both instances share it; the server gets two pools.
    const first = await open();
    dbs = [first, name === 'pglite' ? first : await open()];
  });
  afterAll(async () => {
    for (const db of new Set(dbs)) await db.close();
  });

  it('a report due every minute for 5 minutes → exactly 5 runs, however often both instances tick', async () => {
    const projectId = newId('prj');
    await dbs[0].query(`INSERT INTO projects (id, name) VALUES ($1, 'report store test')`, [projectId]);
    const repo0 = new ReportsRepository(dbs[0]);
    const report = await repo0.insert({ id: newId('rep'), project_id: projectId, name: 'm', cron: '* * * * *', timezone: 'UTC', range: 'previousDay', format: 'csv', next_run_at: new Date(Date.parse('2031-03-01T10:01:00Z')) });
    const clock = new Clock();
    clock.now = () => new Date(now);
    // The content builder is never reached: only schedule() runs here.
    const schedulers = dbs.map((db) => new ReportScheduler(db, new ReportsRepository(db), undefined as unknown as ReportContentBuilder, new OutboxRepository(), clock));
    for (let minute = 1; minute <= 5; minute++) {
      now += 60_000;
      await Promise.all(Array.from({ length: 8 }, (_, i) => schedulers[i % 2].schedule()));
    }
    const runs = await dbs[0].query<{ scheduled_for: Date }>('SELECT scheduled_for FROM report_runs WHERE report_id = $1 ORDER BY scheduled_for', [report.id]);
    expect(runs.map((r) => r.scheduled_for.toISOString())).toEqual(['10:01', '10:02', '10:03', '10:04', '10:05'].map((m) => `2031-03-01T${m}:00.000Z`));
    await dbs[0].query('DELETE FROM projects WHERE id = $1', [projectId]);
  });
});
