import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import { Config } from '../../config/config';

/** Removes the configured keys and tokens (and our data directory's path) from text that may reach a user or a log line. */
@Injectable()
export class SecretScrubber {
  private readonly secrets: string[];
  private readonly dataDir: string;

  constructor(config: Config) {
    const tokens = [config.AGENT_API_KEY, config.GITHUB_TOKEN].filter((s): s is string => !!s && s.length >= 4);
    // Git over HTTPS carries the token base64-encoded in a Basic header.
    const encoded = config.GITHUB_TOKEN ? [basicAuthValue(config.GITHUB_TOKEN)] : [];
    this.secrets = [...tokens, ...encoded].sort((a, b) => b.length - a.length);
    this.dataDir = resolve(config.DATA_DIR);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s:]+(:[^/@\s]*)?@/gi, '$1[redacted]@');
    out = out.replace(/(authorization:\s*)(basic|bearer|token)\s+\S+/gi, '$1$2 [redacted]');
    return out.split(this.dataDir).join('<data>');
  }

  /**
   * The one safe text of an error for a user or a log line: its first meaningful line (git's `hint:`
   * lines skipped), every secret scrubbed, at most `max` characters.
   */
  errorText(err: unknown, max = 200): string {
    const text = err instanceof Error ? err.message : String(err);
    const line = text.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('hint:')) ?? 'unknown error';
    return this.scrub(line).slice(0, max);
  }
}

export function basicAuthValue(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString('base64');
}
