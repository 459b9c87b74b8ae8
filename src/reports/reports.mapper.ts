import { ReportRow, RunRow } from './reports.repository';

export function toReportView(row: ReportRow) {
  return {
    id: row.id,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    range: row.range,
    format: row.format,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    nextRunAt: row.next_run_at?.toISOString() ?? null,
  };
}

export function toRunView(row: RunRow) {
  return {
    id: row.id,
    status: row.status,
    scheduledFor: row.scheduled_for.toISOString(),
    manual: row.manual,
    window: { dateFrom: row.window_from.toISOString(), dateTo: row.window_to.toISOString() },
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}
