import { Injectable } from '@nestjs/common';
import { IdempotencyRepository } from '../../common/idempotency.repository';
import { newId } from '../../common/ids';
import { Config } from '../../config/config';
import { Database, Queryable } from '../../database/database';
import { ProjectsService } from '../../projects/projects.service';
import { JobListView, JobView, ListJobsQuery, PromptDto } from './jobs.dto';
import { toJobView } from './jobs.mapper';
import { JobRow, JobsRepository } from './jobs.repository';
import { assertIdempotencyKey } from '../../common/idempotency-key';
import { InvalidTransition, NotFound, RateLimited } from '../../common/domain-errors';
import { RateLimitRepository, rateLimitHeaders, RateLimitState } from './rate-limit.repository';


/**
 * The outcome of a rate-limited operation: the interceptor turns `rateLimit` into headers, and
 * `replayed` (an Idempotency-Key seen before: nothing was done or charged again) into one.
 */
export interface RateLimitedResult<T> {
  body: T;
  rateLimit: RateLimitState;
  replayed: boolean;
}

@Injectable()
export class JobsService {
  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly jobs: JobsRepository,
    private readonly rateLimit: RateLimitRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly projects: ProjectsService,
  ) {}

  async create(projectId: string, dto: PromptDto, idempotencyKey: string | undefined): Promise<RateLimitedResult<JobView>> {
    const project = await this.projects.getRow(projectId);
    return this.rateLimited(projectId, 'agent.job.create', idempotencyKey, async (tx, charge) => {
      await charge();
      const job = {
        id: newId('job'),
        project_id: projectId,
        model: this.config.AGENT_MODEL ?? '',
        repository: project.repository,
        ref: project.ref,
        clone_url: project.clone_url,
      };
      return this.jobs.insert(tx, job, dto.prompt);
    });
  }

  async get(projectId: string, id: string): Promise<JobView> {
    const row = await this.jobs.find(projectId, id);
    if (!row) throw notFound(id);
    return toJobView(row);
  }

  async addMessage(projectId: string, id: string, dto: PromptDto, idempotencyKey: string | undefined): Promise<RateLimitedResult<JobView>> {
    return this.rateLimited(projectId, `agent.job.message:${id}`, idempotencyKey, async (tx, charge) => {
      const job = await this.jobs.lock(tx, projectId, id);
      if (!job) throw notFound(id);
      if (job.status === 'archived') throw new InvalidTransition(`Job ${id} is archived; it takes no more messages.`);
      await charge();
      return this.jobs.addMessage(tx, id, dto.prompt);
    });
  }

  async archive(projectId: string, id: string): Promise<JobView> {
    return this.db.transaction(async (tx) => {
      const job = await this.jobs.lock(tx, projectId, id);
      if (!job) throw notFound(id);
      if (job.status === 'archived') throw new InvalidTransition(`Job ${id} is already archived.`);
      return toJobView(await this.jobs.archive(tx, id));
    });
  }

  async list(projectId: string, query: ListJobsQuery): Promise<JobListView> {
    const limit = query.limit ?? 20;
    const rows = await this.jobs.list(projectId, query.status, limit + 1, query.offset ?? 0);
    return { jobs: rows.slice(0, limit).map(toJobView), hasMore: rows.length > limit };
  }

  /** The budget as it stands; the interceptor puts it on error responses of the rate-limited routes. */
  currentRateLimit(projectId: string): Promise<RateLimitState> {
    return this.rateLimit.peek(projectId);
  }

  /**
   * Runs a budget-charging operation in ONE transaction with its Idempotency-Key: a replay returns
   * the stored response and charges nothing; a rejection (429, 404, 409) rolls back the key claim
   * and the charge together, so a crash can never charge without doing the work or vice versa.
   * `work` must call `charge()` once, after its own checks and before writing.
   */
  private async rateLimited(
    projectId: string,
    scope: string,
    idempotencyKey: string | undefined,
    work: (tx: Queryable, charge: () => Promise<void>) => Promise<JobRow>,
  ): Promise<RateLimitedResult<JobView>> {
    assertIdempotencyKey(idempotencyKey);
    return this.db.transaction(async (tx) => {
      if (idempotencyKey !== undefined) {
        // On a real server a concurrent request with the same key waits here for the first to commit.
        // The claim commits with the job, so a crash mid-way leaves no claim: the retry creates the job once.
        const claim = await this.idempotency.claim(projectId, scope, idempotencyKey, tx);
        if (claim.state === 'replay') return { body: claim.response as JobView, rateLimit: await this.rateLimit.peek(projectId, tx), replayed: true };
      }
      let rateLimit: RateLimitState | undefined;
      const charge = async () => {
        rateLimit = await this.rateLimit.consume(tx, projectId);
        if (!rateLimit.allowed) throw tooManyRequests(rateLimit);
      };
      const row = await work(tx, charge);
      if (!rateLimit) throw new Error(`${scope}: the operation did not charge the rate limit`);
      const body = toJobView(row);
      if (idempotencyKey !== undefined) await this.idempotency.complete(projectId, scope, idempotencyKey, body, tx);
      return { body, rateLimit, replayed: false };
    });
  }
}

function notFound(id: string): NotFound {
  return new NotFound(`Job ${id} does not exist in this project.`);
}

/** Spent budget; the interceptor adds the RateLimit-* headers from `state`. */
export class JobRateLimited extends RateLimited {
  constructor(readonly state: RateLimitState) {
    super(`Rate limit reached: ${state.limit} job creations and follow-up messages per project per hour. Retry in ${state.resetSeconds} s.`, state.resetSeconds);
  }
}

function tooManyRequests(state: RateLimitState): JobRateLimited {
  return new JobRateLimited(state);
}
