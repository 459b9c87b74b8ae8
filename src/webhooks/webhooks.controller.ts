import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ProjectOrAdminAccess } from '../auth/auth.guard';
import { PageQuery } from '../common/page-query';
import { CreateWebhookDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('v1/projects/:projectId/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ProjectOrAdminAccess()
  @HttpCode(201)
  create(@Param('projectId') projectId: string, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(projectId, dto);
  }

  @Get()
  @ProjectOrAdminAccess()
  list(@Param('projectId') projectId: string) {
    return this.webhooks.list(projectId);
  }

  @Delete(':id')
  @ProjectOrAdminAccess()
  @HttpCode(204)
  delete(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.webhooks.delete(projectId, id);
  }

  @Get(':id/deliveries')
  @ProjectOrAdminAccess()
  deliveries(@Param('projectId') projectId: string, @Param('id') id: string, @Query() query: PageQuery) {
    return this.webhooks.deliveries(projectId, id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @ProjectOrAdminAccess()
  @HttpCode(202)
  redeliver(@Param('projectId') projectId: string, @Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.redeliver(projectId, id, deliveryId);
  }
}
