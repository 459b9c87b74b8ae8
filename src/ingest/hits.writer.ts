import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Config } from '../config/config';
import { isRejectedData } from '../clickhouse/clickhouse-errors';
import { Metrics } from '../metrics/metrics';
import { GroupCommit, InsertBatch, QueueFullError } from './group-commit';
import { InvalidInput, QueueFull, StoreUnavailable } from '../common/domain-errors';
import { HitRow, HitsRepository, MAX_PARTITIONS_PER_INSERT, partitionOf } from './hits.repository';

/** Inserts running at once: the next batch is handed over while one is written (chDB itself runs them one at a time). */
const MAX_IN_FLIGHT = 2;

/**
 * The only way hits reach ClickHouse: group-commits concurrent requests into shared inserts and
 * resolves each write only once its rows are stored. Rows the store refuses as invalid fail their
 * own request alone (400: retrying cannot help); a full queue or an unwell store → 503 Retry-After.
 */
@Injectable()
export class HitsWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(HitsWriter.name);
  private readonly commit: GroupCommit<HitRow>;

  constructor(hits: HitsRepository, config: Config, metrics: Metrics) {
    const insert = async (rows: HitRow[], batch: InsertBatch) => {
      const end = metrics.flushDuration.startTimer();
      metrics.flushRows.observe(rows.length);
      try {
        await hits.insert(rows, { dedupToken: batch.key, partitions: batch.partitions });
        end({ outcome: 'ok' });
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    };
    this.commit = new GroupCommit<HitRow>(insert, {
      flushRows: config.INGEST_FLUSH_ROWS,
      flushMs: config.INGEST_FLUSH_MS,
      maxQueueRows: config.INGEST_QUEUE_MAX_ROWS,
      maxInFlight: MAX_IN_FLIGHT,
      idleFlush: config.INGEST_FLUSH_WHEN_IDLE,
      maxPartitions: MAX_PARTITIONS_PER_INSERT,
      partitionOf,
      isDataError: isRejectedData,
    });
    metrics.bufferDepthFrom(() => this.commit.pendingRows);
  }

  /**
   * Resolves once `rows` are stored. With `dedupToken` the rows go in an insert of their own that
   * the store deduplicates by that token: writing them again with the same token stores nothing twice.
   */
  async write(rows: HitRow[], dedupToken?: string): Promise<void> {
    try {
      await this.commit.write(rows, { key: dedupToken });
    } catch (err) {
      if (err instanceof QueueFullError) throw new QueueFull('Too many hits are waiting to be stored; retry shortly.', 1);
      if (isRejectedData(err)) {
        this.logger.warn({ err, rows: rows.length }, 'the store refused hits as invalid');
        throw new InvalidInput(`The store refused these hits as invalid (${(err as { type?: string }).type ?? 'bad data'}); sending them again will not help.`);
      }
      this.logger.error({ err, rows: rows.length }, 'hits insert failed');
      throw new StoreUnavailable('Hits could not be stored; retry later.', 5);
    }
  }

  /** Runs before the HTTP server and the ClickHouse client close: everything accepted gets stored. */
  async beforeApplicationShutdown(): Promise<void> {
    const pending = this.commit.pendingRows;
    await this.commit.drain();
    if (pending) this.logger.log(`drained ${pending} pending hits`);
  }
}
