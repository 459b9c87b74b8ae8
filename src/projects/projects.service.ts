import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids';
import { generateApiKey, hashSecret, keyHint } from '../auth/api-key';
import { ApiKeyView, CreateProjectDto, ListProjectsQuery, ProjectView, UpdateProjectDto } from './projects.dto';
import { toApiKeyView, toProjectView } from './projects.mapper';
import { NotFound } from '../common/domain-errors';
import { NewKey, NewProject, ProjectRow, ProjectsRepository } from './projects.repository';

function newKey(): { secret: string; row: NewKey } {
  const secret = generateApiKey();
  return { secret, row: { id: newId('key'), key_hash: hashSecret(secret), hint: keyHint(secret) } };
}

function newProject(dto: CreateProjectDto): NewProject {
  return { id: newId('prj'), name: dto.name, repository: dto.repository ?? null, ref: dto.ref ?? 'main', clone_url: dto.cloneUrl ?? null };
}

@Injectable()
export class ProjectsService {
  constructor(private readonly projects: ProjectsRepository) {}

  async create(dto: CreateProjectDto): Promise<{ project: ProjectView; apiKey: string }> {
    const key = newKey();
    const { project } = await this.projects.insertWithKey(newProject(dto), key.row);
    return { project: toProjectView(project), apiKey: key.secret };
  }

  /** On an empty database, creates project `default` and returns it with its key; else undefined. */
  async createDefaultIfEmpty(): Promise<{ projectId: string; apiKey: string } | undefined> {
    const project = newProject({ name: 'default' });
    const key = newKey();
    const created = await this.projects.insertIfEmpty(project, key.row);
    return created ? { projectId: project.id, apiKey: key.secret } : undefined;
  }

  async list(query: ListProjectsQuery): Promise<{ projects: ProjectView[]; hasMore: boolean }> {
    const limit = query.limit ?? 50;
    const rows = await this.projects.list(limit + 1, query.offset ?? 0);
    return { projects: rows.slice(0, limit).map(toProjectView), hasMore: rows.length > limit };
  }

  async getRow(projectId: string): Promise<ProjectRow> {
    const row = await this.projects.find(projectId);
    if (!row) throw new NotFound(`Project ${projectId} does not exist.`);
    return row;
  }

  async get(projectId: string): Promise<ProjectView> {
    return toProjectView(await this.getRow(projectId));
  }

  async update(projectId: string, dto: UpdateProjectDto): Promise<ProjectView> {
    const changes: Record<string, unknown> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.repository !== undefined) changes.repository = dto.repository;
    if (dto.ref !== undefined) changes.ref = dto.ref;
    if (dto.cloneUrl !== undefined) changes.clone_url = dto.cloneUrl;
    const row = await this.projects.update(projectId, changes);
    if (!row) throw new NotFound(`Project ${projectId} does not exist.`);
    return toProjectView(row);
  }

  async createKey(projectId: string): Promise<{ id: string; key: string; createdAt: string }> {
    await this.getRow(projectId);
    const key = newKey();
    const row = await this.projects.insertKey(projectId, key.row);
    return { id: row.id, key: key.secret, createdAt: row.created_at.toISOString() };
  }

  async listKeys(projectId: string): Promise<{ keys: ApiKeyView[] }> {
    await this.getRow(projectId);
    return { keys: (await this.projects.listKeys(projectId)).map(toApiKeyView) };
  }

  async revokeKey(projectId: string, keyId: string): Promise<void> {
    await this.getRow(projectId);
    if (!(await this.projects.revokeKey(projectId, keyId))) throw new NotFound(`Key ${keyId} does not exist in project ${projectId}.`);
  }
}
