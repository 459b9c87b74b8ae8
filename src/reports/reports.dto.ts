import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { REPORT_RANGES } from './report-window';

export const NAME_MAX_LENGTH = 200;
const FORMATS = ['csv', 'json'] as const;

export class CreateReportDto {
  @ApiProperty({ maxLength: NAME_MAX_LENGTH, example: 'Weekly' })
  @IsString() @MaxLength(NAME_MAX_LENGTH) @Matches(/\S/, { message: 'name must contain at least one non-whitespace character' })
  name: string;

  @ApiProperty({ example: '0 8 * * 1', description: '5-field cron, evaluated in timezone' })
  @IsString() @MaxLength(200)
  cron: string;

  @ApiPropertyOptional({ example: 'Europe/Berlin', default: 'UTC' })
  @IsOptional() @IsString() @MaxLength(64)
  timezone?: string;

  @ApiProperty({ enum: REPORT_RANGES })
  @IsIn(REPORT_RANGES)
  range: string;

  @ApiPropertyOptional({ enum: FORMATS, default: 'csv' })
  @IsOptional() @IsIn(FORMATS)
  format?: 'csv' | 'json';
}

export class UpdateReportDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX_LENGTH })
  @IsOptional() @IsString() @MaxLength(NAME_MAX_LENGTH) @Matches(/\S/, { message: 'name must contain at least one non-whitespace character' })
  name?: string;

  @ApiPropertyOptional()
  @IsOptional() @IsString() @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional()
  @IsOptional() @IsString() @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ enum: REPORT_RANGES })
  @IsOptional() @IsIn(REPORT_RANGES)
  range?: string;

  @ApiPropertyOptional({ enum: FORMATS })
  @IsOptional() @IsIn(FORMATS)
  format?: 'csv' | 'json';
}
