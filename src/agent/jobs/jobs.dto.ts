import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { parseQueryInteger } from '../../common/query-integer';
import { JOB_STATUSES, JobStatus } from './jobs.repository';

/** Digits only, as every integer query parameter (common/query-integer.ts); anything else fails IsInt. */
const strictInteger = ({ value }: { value: unknown }) => parseQueryInteger(value) ?? NaN;
const LIMIT_RULE = { message: 'limit must be an integer from 1 to 100' };
const OFFSET_RULE = { message: 'offset must be an integer from 0 to 10000000' };

export const PROMPT_MAX_LENGTH = 100_000;

export class PromptDto {
  @ApiProperty({ minLength: 1, maxLength: PROMPT_MAX_LENGTH, description: 'The instruction the agent carries out.' })
  @IsString()
  @MaxLength(PROMPT_MAX_LENGTH)
  @Matches(/\S/, { message: 'prompt must contain at least one non-whitespace character' })
  prompt: string;
}

export class ListJobsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional() @Transform(strictInteger) @IsInt(LIMIT_RULE) @Min(1, LIMIT_RULE) @Max(100, LIMIT_RULE)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional() @Transform(strictInteger) @IsInt(OFFSET_RULE) @Min(0, OFFSET_RULE) @Max(10_000_000, OFFSET_RULE)
  offset?: number;

  @ApiPropertyOptional({ enum: JOB_STATUSES })
  @IsOptional() @IsIn(JOB_STATUSES)
  status?: JobStatus;
}

export interface JobView {
  id: string;
  status: JobStatus;
  source: { repository: string; ref: string };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
  updatedAt: string;
  error: string | null;
}

export interface JobListView {
  jobs: JobView[];
  hasMore: boolean;
}
