import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A .txt so that `swc --copy-files` copies the browser script byte for byte; as .js it would be
// compiled for Node (a "use strict" prologue, reformatting and a sourceMappingURL comment).
const SCRIPT_FILE = join(__dirname, 'tracker.js.txt');

/** The browser tracker, read once at boot and served from memory with a strong ETag. */
@Injectable()
export class TrackerScript {
  readonly body: Buffer = readFileSync(SCRIPT_FILE);
  readonly etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 22)}"`;

  /** True when the client's cached copy (If-None-Match) is the script served now. */
  isFresh(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    return ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === this.etag);
  }
}
