import { Database } from '../../src/database/database';
import { migratePostgres } from '../../src/database/migrations';
import { PgDatabase } from '../../src/database/pg-database';
import { PgliteDatabase } from '../../src/database/pglite-database';

export interface DatabaseCase {
  name: string;
  open(): Promise<Database>;
}

/**
 * The Postgres backends a store suite runs against: embedded PGlite always, and the real server at
 * TEST_DATABASE_URL when set (only there do concurrent transactions really race).
 * Use with describe.each(databaseCases()).
 */
export function databaseCases(): DatabaseCase[] {
  const cases: DatabaseCase[] = [
    {
      name: 'pglite',
      async open() {
        const db = await PgliteDatabase.open('memory://');
        await migratePostgres(db);
        return db;
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    cases.push({
      name: 'postgres',
      async open() {
        const db = new PgDatabase(url, 20);
        await migratePostgres(db);
        return db;
      },
    });
  }
  return cases;
}
