import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Config } from '../config/config';
import { randomBase62 } from '../common/ids';

/** The operator token: ADMIN_TOKEN, else one generated on first start and kept in DATA_DIR. */
export class AdminToken {
  private constructor(
    readonly value: string,
    /** True only on the start that generated it, so it is printed exactly once. */
    readonly generated: boolean,
  ) {}

  static resolve(config: Config): AdminToken {
    if (config.ADMIN_TOKEN) return new AdminToken(config.ADMIN_TOKEN, false);
    const file = join(config.DATA_DIR, 'admin-token');
    if (existsSync(file)) return new AdminToken(readFileSync(file, 'utf8').trim(), false);
    mkdirSync(config.DATA_DIR, { recursive: true });
    const value = `docent_admin_${randomBase62(40)}`;
    writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return new AdminToken(value, true);
  }
}
