import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { IdempotencyRepository } from '../common/idempotency.repository';
import { HitSource, Metrics } from '../metrics/metrics';
import { parseSignatureAgent } from './classifier/signature-agent';
import { classifyHit } from './classifier/user-agent-classifier';
import { DailySalts } from './daily-salts';
import { HitInput, parseCollectBody, parseIngestBody } from './hit-input';
import { HitRow, toClickHouseTime } from './hits.repository';
import { HitsWriter } from './hits.writer';
import { KnownProjects } from './known-projects';
import { AgentRanges } from './verification/agent-ranges';
import { assertIdempotencyKey } from '../common/idempotency-key';
import { InvalidInput, NotFound } from '../common/domain-errors';
import { utcDay, visitorIdentity } from './visitor-identity';

export const IDEMPOTENCY_SCOPE = 'ingest';


/**
 * The ClickHouse dedup token of a keyed batch: the same for every attempt with this key, and new once
 * the key expires and is claimed again (firstSeenAt changes), so a reused key is a new batch.
 */
export function ingestDedupToken(projectId: string, idempotencyKey: string, firstSeenAt: Date): string {
  return 'idem:' + createHash('sha256').update(JSON.stringify([projectId, IDEMPOTENCY_SCOPE, idempotencyKey, firstSeenAt.toISOString()])).digest('hex');
}

export interface IngestResult {
  accepted: number;
}

/** A server-side ingest's answer; `replayed` when it is the stored answer of an earlier request with the same Idempotency-Key. */
export interface IngestOutcome {
  result: IngestResult;
  replayed: boolean;
}

@Injectable()
export class IngestService {
  constructor(
    private readonly writer: HitsWriter,
    private readonly salts: DailySalts,
    private readonly idempotency: IdempotencyRepository,
    private readonly projects: KnownProjects,
    private readonly metrics: Metrics,
    private readonly ranges: AgentRanges,
  ) {}

  /**
   * Server-side hits: all or nothing, answered only once stored. With an Idempotency-Key, every
   * attempt (the first, a retry after a crash or a 503, a concurrent duplicate) inserts with the same
   * ClickHouse dedup token, and ClickHouse keeps, month by month, only the first copy: a retry
   * completes what an earlier attempt stored in part and never stores anything twice.
   */
  async ingest(projectId: string, body: unknown, idempotencyKey: string | undefined): Promise<IngestOutcome> {
    const now = Date.now();
    let hits = parseIngestBody(body, now);
    if (idempotencyKey === undefined) return { result: await this.store(projectId, hits, 'ingest'), replayed: false };

    assertIdempotencyKey(idempotencyKey);
    const claim = await this.idempotency.claim(projectId, IDEMPOTENCY_SCOPE, idempotencyKey);
    if (claim.state === 'replay') return { result: claim.response as IngestResult, replayed: true };
    // Hits without a timestamp get the first attempt's time, so every attempt puts them in the same month.
    const firstSeen = claim.firstSeenAt.getTime();
    if (firstSeen !== now) hits = parseIngestBody(body, now, firstSeen);
    let result: IngestResult;
    try {
      result = await this.store(projectId, hits, 'ingest', ingestDedupToken(projectId, idempotencyKey, claim.firstSeenAt));
    } catch (err) {
      // Refused as invalid: nothing was stored and the same batch can never succeed, so the key starts
      // afresh. Any other failure keeps the claim: the retry must reuse its token (some months may be stored).
      if (err instanceof InvalidInput) await this.idempotency.release(projectId, IDEMPOTENCY_SCOPE, idempotencyKey);
      throw err;
    }
    await this.idempotency.complete(projectId, IDEMPOTENCY_SCOPE, idempotencyKey, result);
    return { result, replayed: false };
  }

  /** The browser beacon: one hit, user agent and IP from the request itself. */
  async collect(projectId: string, body: unknown, userAgent: string, ip: string, signatureAgentHeader?: string): Promise<IngestResult> {
    const hit = parseCollectBody(body, Date.now());
    // Existence only, not authorization: the beacon is public, but hits for no project are refused.
    let exists = this.projects.exists(projectId);
    if (typeof exists !== 'boolean') exists = await exists;
    if (!exists) throw new NotFound('No project has this id.');
    // A malformed header is not the visitor's fault: the hit is classified by its user agent alone.
    const signatureAgent = signatureAgentHeader === undefined ? undefined : parseSignatureAgent(signatureAgentHeader);
    return this.store(projectId, [{ ...hit, userAgent, ip, signatureAgent }], 'beacon');
  }

  private async store(projectId: string, hits: HitInput[], source: HitSource, dedupToken?: string): Promise<IngestResult> {
    const rows = await this.toRows(projectId, hits);
    await this.writer.write(rows, dedupToken);
    this.metrics.hitsAccepted.inc({ source }, rows.length);
    return { accepted: rows.length };
  }

  private async toRows(projectId: string, hits: HitInput[]): Promise<HitRow[]> {
    const classified = hits.map((hit) => classifyHit(hit.userAgent, hit.signatureAgent));
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
        verification: c.class === 'ai' ? this.ranges.verify(c.aiAgent, hit.ip) : 'unknown',
        browser: c.browser,
        os: c.os,
        device: c.device,
        referrer_host: hit.referrerHost,
        utm_source: hit.utmSource,
      };
    });
  }
}
