import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SqlFile {
  version: number;
  name: string;
  statements: string[];
  checksum: string;
}

/**
 * Reads `NNNN_name.sql` files in order, refusing duplicate numbers, and splits each into statements
 * on `;` at a line end: both stores take one statement per call, and our files keep `;` out of literals.
 */
export function readSqlFiles(dir: string): SqlFile[] {
  const files = readdirSync(dir).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  const seen = new Set<number>();
  return files.map((file) => {
    const version = Number(file.slice(0, 4));
    if (seen.has(version)) throw new Error(`Two migrations share number ${version} in ${dir}`);
    seen.add(version);
    const sql = readFileSync(join(dir, file), 'utf8');
    const statements = sql
      .replace(/^\s*--.*$/gm, '')
      .split(/;\s*(?:\n|$)/)
      .map((s) => s.trim())
      .filter(Boolean);
    return { version, name: file, statements, checksum: createHash('sha256').update(sql).digest('hex') };
  });
}
