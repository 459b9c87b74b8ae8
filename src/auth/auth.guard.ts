import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { hashSecret, isWellFormedApiKey, secretsEqual } from './api-key';
import { ProjectsRepository } from '../projects/projects.repository';
import { AdminToken } from './admin-token';
import { ApiError } from '../common/api-error';

export type Principal = { kind: 'admin' } | { kind: 'key'; projectId: string; keyId: string };
type Access = 'project' | 'admin' | 'project-or-admin' | 'key';

const ACCESS = Symbol('access');
type AuthedRequest = FastifyRequest & { principal?: Principal };

/** A project's admin key, on that project's path only. */
export const ProjectAccess = () => applyDecorators(SetMetadata(ACCESS, 'project'), UseGuards(AuthGuard), ApiBearerAuth());
/** The operator token (ADMIN_TOKEN). */
export const AdminAccess = () => applyDecorators(SetMetadata(ACCESS, 'admin'), UseGuards(AuthGuard), ApiBearerAuth());
/** Any project's admin key, on a path without a project id (the key names its project). */
export const KeyAccess = () => applyDecorators(SetMetadata(ACCESS, 'key'), UseGuards(AuthGuard), ApiBearerAuth());
/** Either of the two. */
export const ProjectOrAdminAccess = () => applyDecorators(SetMetadata(ACCESS, 'project-or-admin'), UseGuards(AuthGuard), ApiBearerAuth());

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthedRequest>().principal);

function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ProjectsRepository,
    private readonly adminToken: AdminToken,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const access = this.reflector.get<Access>(ACCESS, ctx.getHandler()) ?? this.reflector.get<Access>(ACCESS, ctx.getClass());
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const token = bearerToken(req.headers.authorization);
    if (!token) throw ApiError.unauthorized();

    const principal = await this.authenticate(token);
    if (!principal) throw ApiError.unauthorized('The API key is not valid: it is malformed, unknown or revoked.');
    req.principal = principal;

    if (principal.kind === 'admin') {
      if (access === 'key') throw ApiError.forbidden('The operator token belongs to no project; use a project\'s admin API key here.');
      if (access === 'project') throw ApiError.forbidden('Use the project\'s admin API key here, not the operator token.');
      return true;
    }
    if (access === 'admin') throw ApiError.forbidden('This operation needs the operator token (ADMIN_TOKEN).');
    if (access === 'key') return true;
    const pathProject = (req.params as Record<string, string | undefined>).projectId;
    if (pathProject !== principal.projectId) throw ApiError.forbidden();
    return true;
  }

  private async authenticate(token: string): Promise<Principal | undefined> {
    if (isWellFormedApiKey(token)) {
      const hash = hashSecret(token);
      const row = await this.keys.findActiveKeyByHash(hash);
      // The lookup is by hash; the constant-time compare guards against any index-side shortcut.
      if (row && timingSafeEqual(row.key_hash, hash)) return { kind: 'key', projectId: row.project_id, keyId: row.id };
      return undefined;
    }
    return secretsEqual(token, this.adminToken.value) ? { kind: 'admin' } : undefined;
  }
}
