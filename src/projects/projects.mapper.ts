import { ApiKeyView, ProjectView } from './projects.dto';
import { ApiKeyRow, ProjectRow } from './projects.repository';

/** The clone source the worker uses: the explicit one, else the repository's `.git` URL. */
export function effectiveCloneUrl(row: Pick<ProjectRow, 'repository' | 'clone_url'>): string | null {
  return row.clone_url ?? (row.repository ? `${row.repository.replace(/\/+$/, '')}.git` : null);
}

export function toProjectView(row: ProjectRow): ProjectView {
  return {
    id: row.id,
    name: row.name,
    repository: row.repository,
    ref: row.ref,
    cloneUrl: effectiveCloneUrl(row),
    createdAt: row.created_at.toISOString(),
  };
}

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return { id: row.id, hint: row.hint, createdAt: row.created_at.toISOString(), revokedAt: row.revoked_at?.toISOString() ?? null };
}
