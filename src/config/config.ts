import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const v = String(value).toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** Every setting Docent reads, validated once at boot. Nothing else reads process.env. */
export class Config {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString() @IsOptional()
  HOST = '0.0.0.0';

  @IsString() @MinLength(1)
  DATA_DIR = './data';

  @Transform(emptyToUndefined) @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  CLICKHOUSE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  // A scrape-only secret for GET /metrics (the operator token works too).
  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toBool) @IsBoolean()
  TRUST_PROXY = false;

  // A request must arrive whole (headers and body) within REQUEST_TIMEOUT_MS, its headers within
  // HEADERS_TIMEOUT_MS; a client that stalls gets 408 and its connection closed. Idle keep-alive
  // connections close after KEEP_ALIVE_TIMEOUT_MS.
  @Transform(toInt) @IsInt() @Min(100) @Max(3_600_000)
  REQUEST_TIMEOUT_MS = 30_000;

  @Transform(toInt) @IsInt() @Min(100) @Max(3_600_000)
  HEADERS_TIMEOUT_MS = 10_000;

  @Transform(toInt) @IsInt() @Min(100) @Max(3_600_000)
  KEEP_ALIVE_TIMEOUT_MS = 72_000;

  // Ingest group commit: flush when this many rows are waiting, or after this many ms.
  @Transform(toInt) @IsInt() @Min(1) @Max(1_000_000)
  INGEST_FLUSH_ROWS = 5000;

  @Transform(toInt) @IsInt() @Min(0) @Max(10_000)
  INGEST_FLUSH_MS = 20;

  // In a quiet moment (no insert running or finished within INGEST_FLUSH_MS) insert at once rather
  // than wait INGEST_FLUSH_MS; under load rows still gather for INGEST_FLUSH_MS. Off: they always do.
  @Transform(toBool) @IsBoolean()
  INGEST_FLUSH_WHEN_IDLE = true;

  // Hits waiting for ClickHouse beyond this answer 503 instead of growing memory.
  @Transform(toInt) @IsInt() @Min(1) @Max(10_000_000)
  INGEST_QUEUE_MAX_ROWS = 50_000;

  // Off: AI hits are stored with verification 'unknown' and the IP is not looked up (the A/B of bench:ingest).
  @Transform(toBool) @IsBoolean()
  AGENT_VERIFICATION = true;

  // How often each instance looks for refreshed agent IP range lists under DATA_DIR (update-agent-ranges).
  @Transform(toInt) @IsInt() @Min(100) @Max(86_400_000)
  AGENT_RANGES_CHECK_MS = 30_000;

  @Transform(toInt) @IsInt() @Min(1) @Max(3600)
  QUERY_MAX_EXECUTION_SECONDS = 30;

  // Memory one ClickHouse query may use (max_memory_usage); past half of it, GROUP BY and ORDER BY
  // spill to disk instead of failing. A query over the cap answers 503 with Retry-After.
  @Transform(toInt) @IsInt() @Min(1_000_000)
  QUERY_MAX_MEMORY_BYTES = 400_000_000;

  // Embedded ClickHouse (chDB) only, sized for a 1 GB VM; a server is configured on the server.
  // All its memory (queries, merges, caches) stays under CLICKHOUSE_MAX_MEMORY_BYTES
  // (max_server_memory_usage); its mark cache under CLICKHOUSE_MARK_CACHE_BYTES (ClickHouse's
  // default is 5 GiB), and the other caches are small fixed fractions of that.
  @Transform(toInt) @IsInt() @Min(64_000_000)
  CLICKHOUSE_MAX_MEMORY_BYTES = 512 * 1024 * 1024;

  @Transform(toInt) @IsInt() @Min(0)
  CLICKHOUSE_MARK_CACHE_BYTES = 64 * 1024 * 1024;

  // Embedded Postgres (PGlite) only: its shared_buffers, in MB (Postgres' default 128 MB stays resident).
  @Transform(toInt) @IsInt() @Min(1) @Max(4096)
  PGLITE_SHARED_BUFFERS_MB = 16;

  @Transform(toBool) @IsBoolean()
  WORKER = true;

  @Transform(toInt) @IsInt() @Min(1) @Max(64)
  AGENT_CONCURRENCY = 2;

  @Transform(emptyToUndefined) @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  AGENT_BASE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString()
  AGENT_API_KEY?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString()
  AGENT_MODEL?: string;

  @Transform(toInt) @IsInt() @Min(1) @Max(500)
  AGENT_MAX_STEPS = 40;

  @Transform(toInt) @IsInt() @Min(1000)
  AGENT_TURN_TIMEOUT_MS = 600_000;

  @Transform(toInt) @IsInt() @Min(1000)
  AGENT_LEASE_MS = 30_000;

  // A failed turn is retried up to AGENT_MAX_ATTEMPTS times in all, waiting BACKOFF, then 4 × BACKOFF.
  @Transform(toInt) @IsInt() @Min(1) @Max(10)
  AGENT_MAX_ATTEMPTS = 3;

  @Transform(toInt) @IsInt() @Min(0) @Max(3_600_000)
  AGENT_RETRY_BACKOFF_MS = 5000;

  @IsString() @MinLength(1)
  GIT_AUTHOR_NAME = 'Docent';

  @IsString() @MinLength(3)
  GIT_AUTHOR_EMAIL = 'docent@localhost';

  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  GITHUB_API_URL = 'https://api.github.com';

  @Transform(emptyToUndefined) @IsOptional() @IsString()
  GITHUB_TOKEN?: string;

  // Webhook URLs on loopback, private or link-local addresses are refused unless this is on (self-hosted receivers, tests).
  @Transform(toBool) @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE = false;

  // Delivers webhooks and runs scheduled reports in this process (the service and every standalone worker by default).
  @Transform(toBool) @IsBoolean()
  DELIVERY = true;
}

export class ConfigError extends Error {}

/** Builds the Config from an environment; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(new Config());
  const plain: Record<string, string> = {};
  for (const key of [...known, 'CLICKHOUSE_URL', 'DATABASE_URL', 'ADMIN_TOKEN', 'METRICS_TOKEN', 'AGENT_BASE_URL', 'AGENT_API_KEY', 'AGENT_MODEL', 'GITHUB_TOKEN']) {
    if (env[key] !== undefined) plain[key] = env[key] as string;
  }
  const config = plainToInstance(Config, plain, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}=${JSON.stringify(plain[e.property] ?? '')}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}

/** loadConfig for an entry point: a bad setting is printed and the process exits with EX_CONFIG (78). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}
