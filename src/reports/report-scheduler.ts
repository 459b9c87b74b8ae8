import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { Clock } from '../common/clock';
import { CoalescedRun } from '../common/coalesced-run';
import { newId, randomBase62 } from '../common/ids';
import { Database } from '../database/database';
import { OutboxRepository } from '../webhooks/outbox.repository';
import { ReportContentBuilder } from './report-content';
import { latestDue, nextDue, ReportRange, reportWindow } from './report-window';
import { toReportView, toRunView } from './reports.mapper';
import { ReportRow, ReportsRepository, RunRow } from './reports.repository';

const POLL_MS = 1000;
const LEASE_MS = 5 * 60_000;
const CONTENT_DAYS = 30;
const MAX_RUN_ATTEMPTS = 3;

/**
 * Turns due times into runs and runs them, safely with any number of instances: a due report row
 * is locked with SKIP LOCKED while its run is inserted (unique per due time) and next_run_at moves
 * past now; only the latest missed time runs after downtime. Runs are claimed under a lease.
 */
@Injectable()
export class ReportScheduler implements OnModuleDestroy {
  private readonly logger = new Logger(ReportScheduler.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  private timer?: NodeJS.Timeout;
  private stopping = false;
  private lastPurge = 0;
  private readonly rounds = new CoalescedRun(
    () => this.round(),
    (err) => this.logger.warn({ err: String(err) }, 'report round failed; retrying at the next poll'),
    () => !this.stopping,
  );

  constructor(
    private readonly db: Database,
    private readonly repo: ReportsRepository,
    private readonly content: ReportContentBuilder,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    void this.tick();
  }

  /**
   * One round: schedule what is due, run what is pending, purge old content. Calls during a round
   * coalesce into one more round after it, so a "run now" inserted late in a round is not left for
   * the next poll. Resolves when the current round is done.
   */
  tick(): Promise<void> {
    return this.rounds.request();
  }

  private async round(): Promise<void> {
    await this.schedule();
    while (!this.stopping && (await this.runOne()));
    const now = this.clock.now().getTime();
    if (now - this.lastPurge > 3_600_000) {
      this.lastPurge = now;
      await this.repo.purgeContent(new Date(now - CONTENT_DAYS * 86_400_000));
    }
  }

  /** Inserts one run per due report and moves its next_run_at; exposed for the store test of exactly-once. */
  async schedule(): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      for (const report of await this.repo.lockDue(tx, now, 100)) {
        const due = latestDue(report.cron, report.timezone, now) ?? report.next_run_at!;
        await this.repo.insertRun(tx, this.newRun(report, due, false, now));
        await this.repo.setNextRun(tx, report.id, nextDue(report.cron, report.timezone, now));
      }
    });
  }

  newRun(report: ReportRow, due: Date, manual: boolean, now: Date) {
    const window = reportWindow(report.range as ReportRange, due.getTime(), report.timezone);
    return { id: newId('run'), report_id: report.id, project_id: report.project_id, scheduled_for: due, manual, window_from: new Date(window.from), window_to: new Date(window.to), created_at: now };
  }

  private async runOne(): Promise<boolean> {
    const run = await this.repo.claimRun(this.workerId, this.clock.now(), LEASE_MS);
    if (!run) return false;
    let content: string | null = null;
    let error: string | null = null;
    if (run.attempts > MAX_RUN_ATTEMPTS) error = 'The report was interrupted repeatedly while running.';
    else {
      try {
        content = await this.content.build({ projectId: run.project_id, timezone: run.report.timezone, format: run.report.format, from: run.window_from, to: run.window_to });
      } catch (err) {
        this.logger.warn({ runId: run.id, err: String(err) }, 'report run failed');
        error = 'The report could not be built: the analytics store failed. It runs again at its next due time, or use "run now".';
      }
    }
    await this.finish(run, run.report, content, error);
    return true;
  }

  /** Records the outcome and, in the same transaction, the report.ready event. */
  private async finish(run: RunRow, report: ReportRow, content: string | null, error: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const done = await this.repo.finishRun(tx, run.id, this.workerId, { content, error, at: this.clock.now() });
      if (!done || error) return;
      const contentUrl = `/v1/projects/${report.project_id}/reports/${report.id}/runs/${run.id}/content`;
      await this.outbox.enqueue(tx, report.project_id, 'report.ready', { report: toReportView(report), run: toRunView(done), contentUrl });
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.rounds.current;
  }
}
