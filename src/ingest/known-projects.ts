import { Injectable } from '@nestjs/common';
import { LruCache } from '../common/lru-cache';
import { ProjectsRepository } from '../projects/projects.repository';

/** Projects are never deleted, so a yes is kept a while; a no briefly (the project may be created next). */
const KNOWN_TTL_MS = 60_000;
const UNKNOWN_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
/** Ids per lookup query; more wait for the next one. */
const MAX_IDS_PER_LOOKUP = 500;

interface Pending {
  resolve(exists: boolean): void;
  reject(err: unknown): void;
}

/**
 * Whether a project id exists, for the public beacon (existence only, not authorization). Answers
 * from a bounded LRU; misses are looked up in batches with at most one Postgres query in flight, so
 * a flood of random ids costs one query per round trip, not one per request.
 */
@Injectable()
export class KnownProjects {
  private readonly cache = new LruCache<string, boolean>(MAX_ENTRIES);
  private waiting = new Map<string, Pending[]>();
  private querying = false;

  constructor(private readonly projects: ProjectsRepository) {}

  /** A boolean when cached (no promise on the hot path), else a promise of one. */
  exists(projectId: string): boolean | Promise<boolean> {
    const cached = this.cache.get(projectId);
    if (cached !== undefined) return cached;
    return new Promise<boolean>((resolve, reject) => {
      const list = this.waiting.get(projectId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(projectId, [{ resolve, reject }]);
      this.lookup();
    });
  }

  private lookup(): void {
    if (this.querying || this.waiting.size === 0) return;
    this.querying = true;
    const batch = new Map<string, Pending[]>();
    for (const [id, pending] of this.waiting) {
      if (batch.size === MAX_IDS_PER_LOOKUP) break;
      batch.set(id, pending);
      this.waiting.delete(id);
    }
    this.projects
      .existingIds([...batch.keys()])
      .then(
        (found) => {
          const known = new Set(found);
          for (const [id, pending] of batch) {
            const exists = known.has(id);
            this.cache.set(id, exists, exists ? KNOWN_TTL_MS : UNKNOWN_TTL_MS);
            for (const p of pending) p.resolve(exists);
          }
        },
        (err: unknown) => {
          for (const pending of batch.values()) for (const p of pending) p.reject(err);
        },
      )
      .finally(() => {
        this.querying = false;
        this.lookup();
      });
  }
}
