import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds buckets for HTTP answers: the beacon answers in ~1 ms, reports in up to seconds. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FLUSH_ROW_BUCKETS = [1, 5, 10, 50, 100, 500, 1000, 5000, 10000];
const TURN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800];

export const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'] as const;
export type HitSource = 'beacon' | 'ingest';

/**
 * Every Prometheus metric Docent exports, on a registry of its own (one per app, so tests that boot
 * several apps in one process never collide). Labels are bounded by construction: route patterns,
 * status codes, fixed reason and report names; never a project id, key, IP or raw path.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'docent_http_request_duration_seconds',
    help: 'HTTP requests by route pattern (never the raw URL), method and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly hitsAccepted = new Counter({
    name: 'docent_hits_accepted_total',
    help: 'Hits stored and acknowledged (202), by source: beacon or server-side ingest.',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly ingestRejected = new Counter({
    name: 'docent_ingest_requests_rejected_total',
    help: 'Ingest requests refused, by source and reason (one beacon request is one hit; a batch is refused whole).',
    labelNames: ['source', 'reason'] as const,
    registers: [this.registry],
  });

  readonly flushRows = new Histogram({
    name: 'docent_group_commit_flush_rows',
    help: 'Rows per group-commit insert into ClickHouse.',
    buckets: FLUSH_ROW_BUCKETS,
    registers: [this.registry],
  });

  readonly flushDuration = new Histogram({
    name: 'docent_group_commit_flush_duration_seconds',
    help: 'Duration of each group-commit insert into ClickHouse, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: QUERY_BUCKETS,
    registers: [this.registry],
  });

  readonly bufferRows: Gauge = new Gauge({
    name: 'docent_group_commit_buffer_rows',
    help: 'Hits waiting for an insert or being inserted (INGEST_QUEUE_MAX_ROWS bounds it).',
    registers: [this.registry],
    // Read at scrape time: nothing is kept up to date per request.
    collect: (): void => this.bufferRows.set(this.bufferDepth?.() ?? 0),
  });

  readonly clickhouseMemory: Gauge = new Gauge({
    name: 'docent_clickhouse_memory_tracked_bytes',
    help: "ClickHouse's own tracked memory (system.metrics MemoryTracking): the embedded engine's allocations, or the server's.",
    registers: [this.registry],
    collect: async (): Promise<void> => {
      if (this.clickhouseMemorySource) this.clickhouseMemory.set(await this.clickhouseMemorySource());
    },
  });

  readonly queryDuration = new Histogram({
    name: 'docent_clickhouse_query_duration_seconds',
    help: 'ClickHouse report queries by report name and outcome.',
    labelNames: ['report', 'outcome'] as const,
    buckets: QUERY_BUCKETS,
    registers: [this.registry],
  });

  readonly jobs: Gauge<'status'> = new Gauge({
    name: 'docent_agent_jobs',
    help: 'Agent jobs by status, counted in Postgres at scrape time.',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      if (!this.jobCounts) return;
      const counts = new Map((await this.jobCounts()).map((r) => [r.status, Number(r.count)]));
      for (const status of JOB_STATUSES) this.jobs.set({ status }, counts.get(status) ?? 0);
    },
  });

  readonly claimLatency = new Histogram({
    name: 'docent_agent_job_claim_latency_seconds',
    help: 'From a job becoming runnable (run_after) to a worker claiming it, Postgres clock.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  readonly turns = new Counter({
    name: 'docent_agent_turns_total',
    help: 'Agent runner turns by outcome: succeeded, failed (retried or given up) or stopped.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly turnDuration = new Histogram({
    name: 'docent_agent_turn_duration_seconds',
    help: 'Duration of agent runner turns by outcome.',
    labelNames: ['outcome'] as const,
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'docent_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result: delivered, failed (will retry) or dead (gave up).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private jobCounts?: () => Promise<Array<{ status: string; count: number }>>;
  private bufferDepth?: () => number;
  private clickhouseMemorySource?: () => Promise<number>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    for (const source of ['beacon', 'ingest'] as const) this.hitsAccepted.inc({ source }, 0);
    for (const status of ['delivered', 'failed', 'dead']) this.webhookDeliveries.inc({ status }, 0);
  }

  /** Where the jobs-by-status gauge reads from at scrape time (the service registers its repository). */
  countJobsWith(source: () => Promise<Array<{ status: string; count: number }>>): void {
    this.jobCounts = source;
  }

  /** Where the ClickHouse memory gauge reads from at scrape time. */
  clickhouseMemoryFrom(source: () => Promise<number>): void {
    this.clickhouseMemorySource = source;
  }

  /** Where the buffer-depth gauge reads from at scrape time. */
  bufferDepthFrom(source: () => number): void {
    this.bufferDepth = source;
  }

  /** Times one report query; the report name is a fixed string chosen by the caller. */
  async timeQuery<T>(report: string, run: () => Promise<T>): Promise<T> {
    const end = this.queryDuration.startTimer({ report });
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      end({ outcome: 'error' });
      throw err;
    }
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
