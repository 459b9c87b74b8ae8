import { Global, Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { AdminToken } from '../auth/admin-token';
import { AuthGuard } from '../auth/auth.guard';
import { IdempotencyKeysPurge } from '../common/idempotency-purge';
import { IdempotencyRepository } from '../common/idempotency.repository';
import { Config } from '../config/config';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

export const STARTUP_OUTPUT = Symbol('STARTUP_OUTPUT');

@Global()
@Module({
  controllers: [ProjectsController],
  providers: [
    ProjectsRepository,
    ProjectsService,
    AuthGuard,
    IdempotencyRepository,
    IdempotencyKeysPurge,
    { provide: AdminToken, inject: [Config], useFactory: AdminToken.resolve },
    { provide: STARTUP_OUTPUT, inject: [Config], useFactory: (config: Config) => (text: string) => config.LOG_LEVEL !== 'silent' && process.stdout.write(text) },
  ],
  exports: [ProjectsRepository, ProjectsService, AuthGuard, AdminToken, IdempotencyRepository],
})
export class ProjectsModule implements OnApplicationBootstrap {
  constructor(
    private readonly projects: ProjectsService,
    private readonly adminToken: AdminToken,
    @Inject(STARTUP_OUTPUT) private readonly print: (text: string) => void,
  ) {}

  // Secrets go to stdout once, deliberately not through the logger (whose lines are kept and shipped).
  async onApplicationBootstrap(): Promise<void> {
    if (this.adminToken.generated) this.print(`\nDocent operator token (ADMIN_TOKEN), shown once: ${this.adminToken.value}\n`);
    const created = await this.projects.createDefaultIfEmpty();
    if (created) this.print(`\nCreated project "default"\n  project id: ${created.projectId}\n  admin key:  ${created.apiKey} (shown once)\n\n`);
  }
}
