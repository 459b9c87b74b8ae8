import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { AGENTS } from '../classifier/user-agent-classifier';
import { IpRangeSet, parseIp, parseRangeList, RangeList } from './ip-ranges';
import { RANGE_SOURCES, RANGES_SUBDIR, RangeSource, SHIPPED_COLLECTED_AT } from './range-sources';

export type Verification = 'verified' | 'unverified' | 'unknown';

/** Where the shipped lists are: beside this file in src/ and, copied by the build, in dist/. */
export const SHIPPED_RANGES_DIR = resolve(__dirname, 'agent-ranges');

export interface AgentRangesOptions {
  /** DATA_DIR: refreshed lists are read from DATA_DIR/agent-ranges/. */
  dataDir: string;
  /** How often the refreshed files are checked for a change (mtime and size); 0 = never. */
  checkIntervalMs: number;
  /** false: every verification is 'unknown' (AGENT_VERIFICATION=off). */
  enabled?: boolean;
}
export const AGENT_RANGES_OPTIONS = Symbol('AGENT_RANGES_OPTIONS');

interface LoadedList {
  source: RangeSource;
  origin: 'shipped' | 'refreshed';
  creationTime: string;
  /** When this copy was fetched from the operator (refreshed: the file's mtime). */
  fetchedAt: Date;
  set: IpRangeSet;
  prefixes: number;
  /** mtime:size of the refreshed file this state reflects (loaded or rejected), to notice the next change. */
  stamp?: string;
  /** Why the refreshed file was not used, while it stays so. */
  problem?: string;
}

export interface RangeListStatus {
  id: string;
  operator: string;
  agents: string[];
  source: 'shipped' | 'refreshed';
  publishedAt: string;
  fetchedAt: string;
  ageSeconds: number;
  prefixes: number;
  problem?: string;
}

/**
 * The operators' published IP ranges, for `verification` (classification.md §3). Starts from the
 * lists shipped with Docent, prefers a valid refreshed copy under DATA_DIR, and re-checks those
 * files every few seconds, so `update-agent-ranges` (run anywhere that shares DATA_DIR, or once
 * per instance) takes effect without a restart. A file that does not parse never replaces a
 * good list: the previous one stays and the reason is logged and shown in /health.
 */
@Injectable()
export class AgentRanges implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AgentRanges.name);
  private readonly lists = new Map<string, LoadedList>();
  private readonly shipped = new Map<string, LoadedList>();
  /** Agent name → the sets its traffic may come from; absent = its operator publishes no ranges. */
  private byAgent = new Map<string, IpRangeSet[]>();
  private readonly dir: string;
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;

  constructor(@Optional() @Inject(AGENT_RANGES_OPTIONS) private readonly options: AgentRangesOptions = { dataDir: '', checkIntervalMs: 0 }) {
    this.dir = options.dataDir ? resolve(options.dataDir, RANGES_SUBDIR) : '';
    for (const source of RANGE_SOURCES) {
      const list = parseRangeList(readFileSync(join(SHIPPED_RANGES_DIR, `${source.id}.json`), 'utf8'));
      const loaded = this.toLoaded(source, list, 'shipped', new Date(SHIPPED_COLLECTED_AT));
      this.shipped.set(source.id, loaded);
      this.lists.set(source.id, loaded);
    }
    this.rebuildAgents();
  }

  async onModuleInit(): Promise<void> {
    await this.check();
    if (this.dir && this.options.checkIntervalMs > 0) {
      this.timer = setInterval(() => void this.check(), this.options.checkIntervalMs);
      this.timer.unref();
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** `verification` of an AI hit by `agentName` from `ip` (undefined when the hit carried none). */
  verify(agentName: string, ip: string | undefined): Verification {
    const sets = this.byAgent.get(agentName);
    if (!sets || ip === undefined || this.options.enabled === false) return 'unknown';
    const parsed = parseIp(ip);
    if (!parsed) return 'unknown';
    for (const set of sets) if (set.has(parsed)) return 'verified';
    return 'unverified';
  }

  status(now = Date.now()): RangeListStatus[] {
    return [...this.lists.values()].map((l) => ({
      id: l.source.id,
      operator: l.source.operator,
      agents: AGENTS.filter((a) => a.ranges?.includes(l.source.id)).map((a) => a.name),
      source: l.origin,
      publishedAt: l.creationTime,
      fetchedAt: l.fetchedAt.toISOString(),
      ageSeconds: Math.max(0, Math.round((now - l.fetchedAt.getTime()) / 1000)),
      prefixes: l.prefixes,
      ...(l.problem ? { problem: l.problem } : {}),
    }));
  }

  /** Re-reads every refreshed file whose mtime or size changed since the last look. */
  check(): Promise<void> {
    if (!this.dir) return Promise.resolve();
    this.checking ??= this.checkAll().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    // Rebuilt after each changed list, not once at the end: /health and verify() never disagree.
    for (const source of RANGE_SOURCES) if (await this.checkOne(source)) this.rebuildAgents();
  }

  private async checkOne(source: RangeSource): Promise<boolean> {
    const path = join(this.dir, `${source.id}.json`);
    const current = this.lists.get(source.id) as LoadedList;
    let stamp: string;
    let mtime: Date;
    try {
      const s = await stat(path);
      stamp = `${s.mtimeMs}:${s.size}`;
      mtime = s.mtime;
    } catch {
      // No refreshed copy (or it was removed): the shipped list.
      if (current.origin === 'shipped' && !current.problem) return false;
      this.lists.set(source.id, this.shipped.get(source.id) as LoadedList);
      return true;
    }
    if (current.stamp === stamp) return false;
    try {
      const list = parseRangeList(await readFile(path, 'utf8'));
      this.lists.set(source.id, { ...this.toLoaded(source, list, 'refreshed', mtime), stamp });
      this.logger.log(`${source.id}: using the refreshed list (${list.prefixes.length} prefixes, published ${list.creationTime || 'undated'})`);
      return true;
    } catch (err) {
      const problem = `${path} is not a valid range list (${(err as Error).message}); keeping the ${current.origin} list`;
      this.logger.warn(problem);
      this.lists.set(source.id, { ...current, stamp, problem });
      return false;
    }
  }

  private toLoaded(source: RangeSource, list: RangeList, origin: LoadedList['origin'], fetchedAt: Date): LoadedList {
    return { source, origin, creationTime: list.creationTime, fetchedAt, set: new IpRangeSet(list.prefixes), prefixes: list.prefixes.length };
  }

  private rebuildAgents(): void {
    const byAgent = new Map<string, IpRangeSet[]>();
    for (const agent of AGENTS) {
      const sets = (agent.ranges ?? []).map((id) => this.lists.get(id)?.set).filter((s): s is IpRangeSet => s !== undefined);
      if (sets.length > 0) byAgent.set(agent.name, sets);
    }
    this.byAgent = byAgent;
  }
}
