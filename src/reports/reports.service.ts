import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { resolveTimeZone } from '../common/time-zone';
import { Database } from '../database/database';
import { ProjectsService } from '../projects/projects.service';
import { PageQuery } from '../common/page-query';
import { nextDue, parseCron } from './report-window';
import { ReportScheduler } from './report-scheduler';
import { CreateReportDto, UpdateReportDto } from './reports.dto';
import { toReportView, toRunView } from './reports.mapper';
import { InvalidInput, InvalidTransition, NotFound } from '../common/domain-errors';
import { ReportRow, ReportsRepository } from './reports.repository';

@Injectable()
export class ReportsService {
  constructor(
    private readonly db: Database,
    private readonly repo: ReportsRepository,
    private readonly projects: ProjectsService,
    private readonly scheduler: ReportScheduler,
    private readonly clock: Clock,
  ) {}

  async create(projectId: string, dto: CreateReportDto) {
    await this.projects.getRow(projectId);
    const timezone = checkSchedule(dto.cron, dto.timezone ?? 'UTC');
    const row = await this.repo.insert({
      id: newId('rep'), project_id: projectId, name: dto.name, cron: dto.cron, timezone, range: dto.range, format: dto.format ?? 'csv',
      next_run_at: nextDue(dto.cron, timezone, this.clock.now()),
    });
    return { report: toReportView(row) };
  }

  async list(projectId: string) {
    return { reports: (await this.repo.list(projectId)).map(toReportView) };
  }

  async get(projectId: string, id: string) {
    return { report: toReportView(await this.find(projectId, id)) };
  }

  async update(projectId: string, id: string, dto: UpdateReportDto) {
    const row = await this.find(projectId, id);
    const next: ReportRow = { ...row, ...Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined)) };
    next.timezone = checkSchedule(next.cron, next.timezone);
    if (next.cron !== row.cron || next.timezone !== row.timezone) next.next_run_at = nextDue(next.cron, next.timezone, this.clock.now());
    return { report: toReportView(await this.repo.update(next)) };
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(projectId, id))) throw notFound(id);
  }

  /** Run now: a manual run for the window as of now, picked up by the scheduler at once. */
  async runNow(projectId: string, id: string) {
    const report = await this.find(projectId, id);
    const now = this.clock.now();
    const run = await this.db.transaction((tx) => this.repo.insertRun(tx, this.scheduler.newRun(report, now, true, now)));
    void this.scheduler.tick();
    return { run: toRunView(run!) };
  }

  async runs(projectId: string, id: string, query: PageQuery) {
    await this.find(projectId, id);
    const limit = query.limit ?? 20;
    const rows = await this.repo.runs(id, limit + 1, query.offset ?? 0);
    return { runs: rows.slice(0, limit).map(toRunView), hasMore: rows.length > limit };
  }

  async content(projectId: string, id: string, runId: string): Promise<{ contentType: string; body: string }> {
    const report = await this.find(projectId, id);
    const row = await this.repo.content(id, runId);
    if (!row) throw new NotFound(`Run ${runId} does not exist for this report.`);
    if (row.status === 'pending' || row.status === 'running') throw new InvalidTransition(`Run ${runId} has not finished yet.`);
    if (row.status === 'failed') throw new InvalidTransition(`Run ${runId} failed; it has no content.`);
    if (row.content === null) throw new NotFound(`The content of run ${runId} was deleted: content is kept for 30 days.`);
    return { contentType: report.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8', body: row.content };
  }

  private async find(projectId: string, id: string): Promise<ReportRow> {
    const row = await this.repo.find(projectId, id);
    if (!row) throw notFound(id);
    return row;
  }
}

/** Validates cron and timezone; returns the canonical zone name. */
function checkSchedule(cron: string, timezone: string): string {
  const zone = resolveTimeZone(timezone);
  if (!zone) throw InvalidInput.field('timezone', `timezone must be an IANA time zone name such as Europe/Berlin; got "${timezone.slice(0, 64)}".`);
  try {
    parseCron(cron, zone);
  } catch {
    throw InvalidInput.field('cron', 'cron must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 8 * * 1".');
  }
  return zone;
}

function notFound(id: string): NotFound {
  return new NotFound(`Report ${id} does not exist in this project.`);
}
