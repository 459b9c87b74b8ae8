import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { JOB_STATUSES, JobStatus } from './jobs.repository';

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
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10_000_000)
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
