import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

@Injectable()
export class SaltsRepository {
  constructor(private readonly db: Database) {}

  /** The day's salt: the stored one, or `candidate` if this call created it. One round trip, race-free. */
  async getOrCreate(day: string, candidate: Buffer): Promise<Buffer> {
    // DO UPDATE (a no-op write) rather than DO NOTHING so RETURNING also yields a row another instance just inserted.
    const [row] = await this.db.query<{ salt: Uint8Array }>(
      `INSERT INTO ingest_salts (day, salt) VALUES ($1, $2)
       ON CONFLICT (day) DO UPDATE SET day = EXCLUDED.day
       RETURNING salt`,
      [day, candidate],
    );
    return Buffer.from(row.salt);
  }

  /** Destroys the salts of days before `day` (YYYY-MM-DD). */
  async deleteBefore(day: string): Promise<number> {
    const rows = await this.db.query('DELETE FROM ingest_salts WHERE day < $1 RETURNING day', [day]);
    return rows.length;
  }

  async days(): Promise<string[]> {
    const rows = await this.db.query<{ day: string }>("SELECT to_char(day, 'YYYY-MM-DD') AS day FROM ingest_salts ORDER BY day");
    return rows.map((r) => r.day);
  }
}
