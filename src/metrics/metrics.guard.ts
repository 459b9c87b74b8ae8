import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminToken } from '../auth/admin-token';
import { ApiError } from '../common/api-error';
import { Config } from '../config/config';
import { hashSecret, isWellFormedApiKey, secretsEqual } from '../auth/api-key';
import { ProjectsRepository } from '../projects/projects.repository';

/**
 * GET /metrics: the operator token, or METRICS_TOKEN (a scrape-only secret for Prometheus). As
 * elsewhere (decisions.md §1): no or unknown token → 401; a valid project key, which may not read
 * process-wide figures → 403.
 */
@Injectable()
export class MetricsGuard implements CanActivate {
  constructor(
    private readonly config: Config,
    private readonly adminToken: AdminToken,
    private readonly keys: ProjectsRepository,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const token = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) throw ApiError.unauthorized('Send "Authorization: Bearer <ADMIN_TOKEN or METRICS_TOKEN>".');
    if (this.config.METRICS_TOKEN && secretsEqual(token, this.config.METRICS_TOKEN)) return true;
    if (secretsEqual(token, this.adminToken.value)) return true;
    if (isWellFormedApiKey(token) && (await this.keys.findActiveKeyByHash(hashSecret(token)))) {
      throw ApiError.forbidden('Metrics need the operator token (ADMIN_TOKEN) or METRICS_TOKEN, not a project key.');
    }
    throw ApiError.unauthorized('The token is not valid here: use ADMIN_TOKEN or METRICS_TOKEN.');
  }
}
