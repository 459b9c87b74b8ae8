import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { Config } from '../config/config';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The webhooks management API, and the delivery loop in the service process when DELIVERY is on. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService],
})
export class WebhooksModule implements OnApplicationBootstrap {
  constructor(
    private readonly config: Config,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.DELIVERY) await this.dispatcher.start();
  }
}
