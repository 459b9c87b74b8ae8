import { Global, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { OutboxRepository } from './outbox.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksRepository } from './webhooks.repository';

/** The outbox and its delivery loop: needs only Config and Postgres, so standalone workers load it too. */
@Global()
@Module({
  providers: [Clock, OutboxRepository, WebhooksRepository, WebhookDispatcher],
  exports: [Clock, OutboxRepository, WebhooksRepository, WebhookDispatcher],
})
export class WebhooksCoreModule {}
