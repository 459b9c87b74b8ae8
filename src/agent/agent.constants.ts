/** NOTIFY channel: '' = there is new work to claim; `archived:<job id>` = stop that job's in-flight turn. */
export const JOBS_CHANNEL = 'docent_jobs';
export const ARCHIVED_PREFIX = 'archived:';
