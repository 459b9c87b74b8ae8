import { ClickHouseClient } from '@clickhouse/client';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CLICKHOUSE } from '../clickhouse/clickhouse.module';
import { ApiError } from '../common/api-error';
import { Database } from '../database/database';
import { AgentRanges, RangeListStatus } from '../ingest/verification/agent-ranges';

const PROBE_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient,
    private readonly db: Database,
    private readonly agentRanges: AgentRanges,
  ) {}

  @Get()
  async check(): Promise<{ status: 'ok'; clickhouse: 'ok'; postgres: 'ok'; agentRanges: RangeListStatus[] }> {
    const [ch, pg] = await Promise.allSettled([
      within(this.clickhouse.ping(), PROBE_TIMEOUT_MS).then((r) => {
        if (!r.success) throw r.error;
      }),
      within(this.db.query('SELECT 1'), PROBE_TIMEOUT_MS),
    ]);
    const down = [ch.status === 'rejected' ? 'clickhouse' : null, pg.status === 'rejected' ? 'postgres' : null].filter((s): s is string => s !== null);
    if (down.length) {
      throw new ApiError(503, `Storage unavailable: ${down.join(', ')}.`, down.map((field) => ({ field, message: `${field} did not answer` })), { 'Retry-After': '5' });
    }
    // How old each operator IP range list is (verified agents): shipped, or refreshed by update-agent-ranges.
    return { status: 'ok', clickhouse: 'ok', postgres: 'ok', agentRanges: this.agentRanges.status() };
  }
}
