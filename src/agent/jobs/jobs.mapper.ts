import { JobView } from './jobs.dto';
import { JobRow } from './jobs.repository';

export function toJobView(row: JobRow): JobView {
  return {
    id: row.id,
    status: row.status,
    // A project without a repository still gets a job (it fails with a clear error); the field stays a string.
    source: { repository: row.repository ?? '', ref: row.ref },
    model: row.model,
    prLink: row.pr_link,
    createdAt: row.created_at.toISOString(),
    archivedAt: row.archived_at?.toISOString() ?? null,
    updatedAt: row.updated_at.toISOString(),
    error: row.error,
  };
}
