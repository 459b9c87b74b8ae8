import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_EVENTS } from './webhook-events';

export const URL_MAX_LENGTH = 2048;
const EVENT_NAMES = [...WEBHOOK_EVENTS, '*'];

export class CreateWebhookDto {
  @ApiProperty({ maxLength: URL_MAX_LENGTH, example: 'https://example.com/hooks/docent' })
  @IsString() @MaxLength(URL_MAX_LENGTH)
  url: string;

  @ApiProperty({ enum: EVENT_NAMES, isArray: true, description: '["*"] = every event' })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(EVENT_NAMES.length) @ArrayUnique() @IsIn(EVENT_NAMES, { each: true, message: `each value in events must be one of ${EVENT_NAMES.join(', ')}` })
  events: string[];
}

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}
