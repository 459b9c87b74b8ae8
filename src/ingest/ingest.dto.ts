import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// OpenAPI shapes only: bodies are validated by hit-input.ts (hand-written, see there why).

export class IngestHitDoc {
  @ApiPropertyOptional({ description: 'ISO 8601; defaults to now; at most 5 minutes in the future', example: '2026-11-21T10:00:00.000Z' })
  timestamp?: string;
  @ApiProperty({ description: 'Starts with "/"; query string and fragment are dropped; at most 2,048 chars', example: '/docs/start' })
  path: string;
  @ApiProperty({ description: 'The User-Agent header as received, possibly empty; at most 16 KiB' })
  userAgent: string;
  @ApiPropertyOptional({ description: 'IPv4 or IPv6; hashed into the visitor id, never stored' })
  ip?: string;
  @ApiPropertyOptional({ description: 'Your own stable visitor id (at most 256 chars); replaces IP + user agent', maxLength: 256 })
  visitorId?: string;
  @ApiPropertyOptional({ description: 'Referrer URL; only its host is stored' })
  referrer?: string;
  @ApiPropertyOptional({
    description: "The request's Signature-Agent header as received (Web Bot Auth), at most 256 chars; a known operator's directory makes the hit that operator's AI agent",
    example: '"https://chatgpt.com"',
    maxLength: 256,
  })
  signatureAgent?: string;
}

export class IngestHitsBodyDoc {
  @ApiProperty({ type: [IngestHitDoc], minItems: 1, maxItems: 1000 })
  hits: IngestHitDoc[];
}

export class CollectBodyDoc {
  @ApiProperty({ description: 'The page: location.href or a path starting with "/"', example: '/docs/start' })
  path: string;
  @ApiPropertyOptional({ description: 'document.referrer; only its host is stored' })
  referrer?: string;
}

export class AcceptedDoc {
  @ApiProperty({ example: 500 })
  accepted: number;
}
