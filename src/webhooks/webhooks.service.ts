import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { Config } from '../config/config';
import { ProjectsService } from '../projects/projects.service';
import { refuseUrl } from './destination';
import { PageQuery } from '../common/page-query';
import { CreateWebhookDto, DeliveryView, WebhookView } from './webhooks.dto';
import { toDeliveryView, toWebhookView } from './webhooks.mapper';
import { InvalidInput, NotFound } from '../common/domain-errors';
import { WebhooksRepository } from './webhooks.repository';

@Injectable()
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly projects: ProjectsService,
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  async create(projectId: string, dto: CreateWebhookDto): Promise<{ webhook: WebhookView; secret: string }> {
    await this.projects.getRow(projectId);
    const refusal = await refuseUrl(dto.url, this.config.WEBHOOK_ALLOW_PRIVATE);
    if (refusal) throw InvalidInput.field('url', refusal);
    // Standard Webhooks secret: "whsec_" + base64 of 24 random bytes (192 bits).
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const events = dto.events.includes('*') ? ['*'] : dto.events;
    const row = await this.repo.insert({ id: newId('wh'), project_id: projectId, url: dto.url, events, secret });
    return { webhook: toWebhookView(row), secret };
  }

  async list(projectId: string): Promise<{ webhooks: WebhookView[] }> {
    return { webhooks: (await this.repo.list(projectId)).map(toWebhookView) };
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(projectId, id))) throw notFound(id);
  }

  async deliveries(projectId: string, id: string, query: PageQuery): Promise<{ deliveries: DeliveryView[]; hasMore: boolean }> {
    if (!(await this.repo.find(projectId, id))) throw notFound(id);
    const limit = query.limit ?? 20;
    const rows = await this.repo.deliveries(id, limit + 1, query.offset ?? 0);
    return { deliveries: rows.slice(0, limit).map(toDeliveryView), hasMore: rows.length > limit };
  }

  async redeliver(projectId: string, id: string, deliveryId: string): Promise<{ delivery: DeliveryView }> {
    if (!(await this.repo.find(projectId, id))) throw notFound(id);
    const row = await this.repo.redeliver(id, deliveryId, this.clock.now());
    if (!row) throw new NotFound(`Delivery ${deliveryId} does not exist for this webhook.`);
    return { delivery: toDeliveryView(row) };
  }
}

function notFound(id: string): NotFound {
  return new NotFound(`Webhook ${id} does not exist in this project.`);
}
