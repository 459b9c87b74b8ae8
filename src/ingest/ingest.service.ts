import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { IdempotencyRepository } from '../common/idempotency.repository';
import { ProjectsRepository } from '../projects/projects.repository';
import { classifyUserAgent } from './classifier/user-agent-classifier';
import { DailySalts } from './daily-salts';
import { HitInput, parseCollectBody, parseIngestBody } from './hit-input';
import { HitRow, toClickHouseTime } from './hits.repository';
import { HitsWriter } from './hits.writer';
import { utcDay, visitorIdentity } from './visitor-identity';

export const IDEMPOTENCY_SCOPE = 'ingest';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Projects are never deleted, so a yes can be kept a while; a no briefly (the project may be created next). */
const KNOWN_PROJECT_TTL_MS = 60_000;
const UNKNOWN_PROJECT_TTL_MS = 5_000;
const PROJECT_CACHE_MAX = 10_000;

export interface IngestResult {
  accepted: number;
}

@Injectable()
export class IngestService {
  private readonly projectCache = new Map<string, { exists: boolean; until: number }>();

  constructor(
    private readonly writer: HitsWriter,
    private readonly salts: DailySalts,
    private readonly idempotency: IdempotencyRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  /** Server-side hits: all or nothing, answered only once stored. */
  async ingest(projectId: string, body: unknown, idempotencyKey: string | undefined): Promise<IngestResult> {
    const hits = parseIngestBody(body, Date.now());
    if (idempotencyKey === undefined) return this.store(projectId, hits);

    if (idempotencyKey.length < 1 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw ApiError.invalidField('Idempotency-Key', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
    }
    const claim = await this.idempotency.claim(projectId, IDEMPOTENCY_SCOPE, idempotencyKey);
    if (claim.state === 'replay') return claim.response as IngestResult;
    if (claim.state === 'in-progress') throw ApiError.conflict('A request with this Idempotency-Key is still being processed; retry shortly.');
    let result: IngestResult;
    try {
      result = await this.store(projectId, hits);
    } catch (err) {
      await this.idempotency.release(projectId, IDEMPOTENCY_SCOPE, idempotencyKey);
      throw err;
    }
    await this.idempotency.complete(projectId, IDEMPOTENCY_SCOPE, idempotencyKey, 202, result);
    return result;
  }

  /** The browser beacon: one hit, user agent and IP from the request itself. */
  async collect(projectId: string, body: unknown, userAgent: string, ip: string): Promise<IngestResult> {
    const hit = parseCollectBody(body, Date.now());
    if (!(await this.projectExists(projectId))) throw ApiError.notFound('No project has this id.');
    return this.store(projectId, [{ ...hit, userAgent, ip }]);
  }

  private async store(projectId: string, hits: HitInput[]): Promise<IngestResult> {
    const rows = await this.toRows(projectId, hits);
    await this.writer.write(rows);
    return { accepted: rows.length };
  }

  private async toRows(projectId: string, hits: HitInput[]): Promise<HitRow[]> {
    const classified = hits.map((hit) => classifyUserAgent(hit.userAgent));
    // Only human hits without a visitorId are salted, with their own UTC day's salt.
    const days = hits.map((hit, i) => (classified[i].class === 'human' && hit.visitorId === undefined ? utcDay(hit.timestampMs) : undefined));
    const saltByDay = new Map<string, string>();
    for (const day of days) {
      // A day whose salt is destroyed (backfill) gets a salt for this request only.
      if (day !== undefined && !saltByDay.has(day)) saltByDay.set(day, (await this.salts.saltFor(day)) ?? DailySalts.oneOff());
    }
    return hits.map((hit, i) => {
      const c = classified[i];
      const day = days[i];
      return {
        project_id: projectId,
        timestamp: toClickHouseTime(hit.timestampMs),
        path: hit.path,
        visitor_id: visitorIdentity({
          projectId,
          class: c.class,
          visitorId: hit.visitorId,
          ip: hit.ip,
          userAgent: hit.userAgent,
          salt: day === undefined ? undefined : saltByDay.get(day),
        }),
        class: c.class,
        ai_agent: c.aiAgent,
        ai_category: c.aiCategory,
        ai_operator: c.aiOperator,
        verification: 'unknown',
        browser: c.browser,
        os: c.os,
        device: c.device,
        referrer_host: hit.referrerHost,
        utm_source: '',
      };
    });
  }

  /** Existence only, not authorization: the beacon is public, but hits for no project are refused. */
  private async projectExists(projectId: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.projectCache.get(projectId);
    if (cached && cached.until > now) return cached.exists;
    const exists = (await this.projects.find(projectId)) !== undefined;
    if (this.projectCache.size >= PROJECT_CACHE_MAX) this.projectCache.clear();
    this.projectCache.set(projectId, { exists, until: now + (exists ? KNOWN_PROJECT_TTL_MS : UNKNOWN_PROJECT_TTL_MS) });
    return exists;
  }
}
