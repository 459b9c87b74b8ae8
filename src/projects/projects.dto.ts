import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

// A git ref name as `git check-ref-format` would take it, kept simple: no spaces, `..`, or leading `-`.
const REF_PATTERN = /^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\/-]{1,255}(?<![./])$/;
// Clone sources: a URL git understands, or an absolute local path (self-hosted mirrors, tests).
const CLONE_URL_PATTERN = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/\/?|\/)\S+$/;

export class CreateProjectDto {
  @ApiProperty({ example: 'Acme docs' })
  @IsString() @MinLength(1) @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: 'https://github.com/acme/docs', description: 'Web URL of the docs repository.' })
  @IsOptional() @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }) @MaxLength(2048)
  repository?: string;

  @ApiPropertyOptional({ example: 'main', description: 'Branch the agent starts from.' })
  @IsOptional() @IsString() @Matches(REF_PATTERN, { message: 'ref must be a valid git branch name' })
  ref?: string;

  @ApiPropertyOptional({ example: 'https://github.com/acme/docs.git', description: 'Where to clone from; default repository + ".git".' })
  @IsOptional() @IsString() @MaxLength(2048) @Matches(CLONE_URL_PATTERN, { message: 'cloneUrl must be an http(s), ssh, git or file URL, or an absolute path' })
  cloneUrl?: string;
}

export class UpdateProjectDto {
  @ApiPropertyOptional()
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ nullable: true })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }) @MaxLength(2048)
  repository?: string | null;

  @ApiPropertyOptional()
  @IsOptional() @IsString() @Matches(REF_PATTERN, { message: 'ref must be a valid git branch name' })
  ref?: string;

  @ApiPropertyOptional({ nullable: true })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsString() @MaxLength(2048) @Matches(CLONE_URL_PATTERN, { message: 'cloneUrl must be an http(s), ssh, git or file URL, or an absolute path' })
  cloneUrl?: string | null;
}

export interface ProjectView {
  id: string;
  name: string;
  repository: string | null;
  ref: string;
  cloneUrl: string | null;
  createdAt: string;
}

export interface ApiKeyView {
  id: string;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
}

export class ListProjectsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10_000_000)
  offset?: number;
}

export class ProjectDoc {
  @ApiProperty({ example: 'prj_OsRgiSXoqRykY67LClmi' }) id: string;
  @ApiProperty({ example: 'Acme docs' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'https://github.com/acme/docs' }) repository: string | null;
  @ApiProperty({ example: 'main' }) ref: string;
  @ApiProperty({ type: String, nullable: true, example: 'https://github.com/acme/docs.git' }) cloneUrl: string | null;
  @ApiProperty({ example: '2026-11-21T10:00:00.000Z' }) createdAt: string;
}

export class ProjectListDoc {
  @ApiProperty({ type: [ProjectDoc], description: 'Oldest first.' }) projects: ProjectDoc[];
  @ApiProperty({ description: 'True when projects exist past offset + limit.' }) hasMore: boolean;
}
