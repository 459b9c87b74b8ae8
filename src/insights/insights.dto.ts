import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VisitorCountsView } from '../visitors/visitors.dto';
import { INTERVALS } from '../common/time-zone';
import { BREAKDOWN_DIMENSIONS } from './insights.params';

export class BucketHitsView {
  @ApiProperty() human: number;
  @ApiProperty() ai: number;
  @ApiProperty() bot: number;
}

export class BucketView extends VisitorCountsView {
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z', description: 'Start of the bucket (aligned in timezone), ISO 8601 UTC.' })
  start: string;

  @ApiProperty({ type: BucketHitsView, description: 'Hits in the bucket by class (bots included here, never in visitors).' })
  hits: BucketHitsView;
}

export class TimeseriesView {
  @ApiProperty({ enum: INTERVALS })
  interval: string;

  @ApiProperty({ example: 'Europe/Berlin' })
  timezone: string;

  @ApiProperty({ type: [BucketView], description: 'Every bucket of the range, in order, zero-filled. A visitor counts once per bucket.' })
  buckets: BucketView[];
}

export class BreakdownTotalsView extends VisitorCountsView {
  @ApiProperty({ description: 'Hits counted by this dimension (AI hits for agent/operator/category, human hits for referrer/source/browser/os/device, both for format).' })
  hits: number;
}

export class VerificationView {
  @ApiProperty() verified: number;
  @ApiProperty() unverified: number;
  @ApiProperty() unknown: number;
}

export class BreakdownRowView extends BreakdownTotalsView {
  @ApiProperty({ description: 'The dimension value ("" = none, e.g. a direct visit for referrer).', example: 'GPTBot' })
  value: string;

  @ApiPropertyOptional({ description: 'by=agent: the agent\'s operator.', example: 'OpenAI' })
  operator?: string;

  @ApiPropertyOptional({ description: 'by=agent: assistant, agent, search, training or other.', example: 'training' })
  category?: string;

  @ApiPropertyOptional({ type: VerificationView, description: 'by=agent: AI hits by IP verification against the operator\'s published ranges.' })
  verification?: VerificationView;

  @ApiPropertyOptional({ description: 'by=operator: human visitors referred by this operator\'s assistants (referrer host or utm_source).' })
  referred?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'by=operator: AI hits ÷ referred; null when referred is 0.' })
  crawlsPerReferral?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'by=referrer: the AI assistant this host belongs to, else null.', example: 'ChatGPT' })
  aiAssistant?: string | null;
}

export class BreakdownView {
  @ApiProperty({ enum: BREAKDOWN_DIMENSIONS })
  by: string;

  @ApiProperty({ type: BreakdownTotalsView, description: 'Over the whole filtered range, not the page; visitors deduplicated.' })
  totals: BreakdownTotalsView;

  @ApiProperty({ type: [BreakdownRowView], description: 'This page of rows, by total desc, hits desc, value asc.' })
  rows: BreakdownRowView[];

  @ApiProperty({ description: 'True when rows exist past offset + limit.' })
  hasMore: boolean;
}
