import { ApiProperty } from '@nestjs/swagger';

export class VisitorCountsView {
  @ApiProperty({ description: 'Unique human visitors.' })
  human: number;

  @ApiProperty({ description: 'Unique AI visitors.' })
  ai: number;

  @ApiProperty({ description: 'Unique visitors across human and AI traffic (not necessarily human + ai).' })
  total: number;
}

export class PathVisitorsView extends VisitorCountsView {
  @ApiProperty({ example: '/docs/getting-started' })
  path: string;
}

export class VisitorsReportView {
  @ApiProperty({ type: VisitorCountsView, description: 'Site-wide totals over the whole range (all paths).' })
  totals: VisitorCountsView;

  @ApiProperty({ type: [PathVisitorsView], description: 'This page of paths, by total desc, then path asc.' })
  visitors: PathVisitorsView[];

  @ApiProperty({ description: 'True when rows exist past offset + limit.' })
  hasMore: boolean;
}
