import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';

export interface ProjectRow {
  id: string;
  name: string;
  repository: string | null;
  ref: string;
  clone_url: string | null;
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  project_id: string;
  key_hash: Uint8Array; // a Buffer from pg, a plain Uint8Array from PGlite
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
}

export type ProjectChanges = Partial<Pick<ProjectRow, 'name' | 'repository' | 'ref' | 'clone_url'>>;

const PROJECT_COLUMNS = 'id, name, repository, ref, clone_url, created_at';
const FIRST_PROJECT_LOCK = 7_204_114;

export type NewProject = Omit<ProjectRow, 'created_at'>;
export type NewKey = Pick<ApiKeyRow, 'id' | 'key_hash' | 'hint'>;

async function insertProjectAndKey(tx: Queryable, project: NewProject, key: NewKey): Promise<{ project: ProjectRow; key: ApiKeyRow }> {
  const [row] = await tx.query<ProjectRow>(
    `INSERT INTO projects (id, name, repository, ref, clone_url) VALUES ($1, $2, $3, $4, $5) RETURNING ${PROJECT_COLUMNS}`,
    [project.id, project.name, project.repository, project.ref, project.clone_url],
  );
  const [keyRow] = await tx.query<ApiKeyRow>(
    'INSERT INTO api_keys (id, project_id, key_hash, hint) VALUES ($1, $2, $3, $4) RETURNING *',
    [key.id, project.id, key.key_hash, key.hint],
  );
  return { project: row, key: keyRow };
}

@Injectable()
export class ProjectsRepository {
  constructor(private readonly db: Database) {}

  insertWithKey(project: NewProject, key: NewKey): Promise<{ project: ProjectRow; key: ApiKeyRow }> {
    return this.db.transaction((tx) => insertProjectAndKey(tx, project, key));
  }

  /** Creates the project only if there is none yet, under a lock so concurrent first starts make one. */
  insertIfEmpty(project: NewProject, key: NewKey): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_PROJECT_LOCK]);
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM projects');
      if (n > 0) return false;
      await insertProjectAndKey(tx, project, key);
      return true;
    });
  }

  async find(id: string): Promise<ProjectRow | undefined> {
    const [row] = await this.db.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`, [id]);
    return row;
  }

  /** Which of these ids are projects (one query for many: the beacon batches its cache misses). */
  async existingIds(ids: string[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>('SELECT id FROM projects WHERE id = ANY($1::text[])', [ids]);
    return rows.map((r) => r.id);
  }

  /** Oldest first (the first project is `default`); one row more than asked tells whether there is a next page. */
  list(limit: number, offset: number): Promise<ProjectRow[]> {
    return this.db.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY created_at, id LIMIT $1 OFFSET $2`, [limit, offset]);
  }

  async update(id: string, changes: ProjectChanges): Promise<ProjectRow | undefined> {
    const [row] = await this.db.query<ProjectRow>(
      `UPDATE projects SET
         name = CASE WHEN $2 THEN $3 ELSE name END,
         repository = CASE WHEN $4 THEN $5 ELSE repository END,
         ref = CASE WHEN $6 THEN $7 ELSE ref END,
         clone_url = CASE WHEN $8 THEN $9 ELSE clone_url END
       WHERE id = $1 RETURNING ${PROJECT_COLUMNS}`,
      [id, 'name' in changes, changes.name ?? null, 'repository' in changes, changes.repository ?? null, 'ref' in changes, changes.ref ?? null, 'clone_url' in changes, changes.clone_url ?? null],
    );
    return row;
  }

  async insertKey(projectId: string, key: NewKey): Promise<ApiKeyRow> {
    const [row] = await this.db.query<ApiKeyRow>(
      'INSERT INTO api_keys (id, project_id, key_hash, hint) VALUES ($1, $2, $3, $4) RETURNING *',
      [key.id, projectId, key.key_hash, key.hint],
    );
    return row;
  }

  listKeys(projectId: string): Promise<ApiKeyRow[]> {
    return this.db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
  }

  /** Sets revoked_at once; returns false if the key does not exist in that project. */
  async revokeKey(projectId: string, keyId: string): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE project_id = $1 AND id = $2 RETURNING id',
      [projectId, keyId],
    );
    return rows.length > 0;
  }

  async findActiveKeyByHash(hash: Buffer): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hash]);
    return row;
  }
}
