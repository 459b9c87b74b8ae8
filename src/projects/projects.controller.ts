import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAccess, CurrentPrincipal, KeyAccess, Principal, ProjectOrAdminAccess } from '../auth/auth.guard';
import { CreateProjectDto, ListProjectsQuery, ProjectDoc, ProjectListDoc, UpdateProjectDto } from './projects.dto';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@Controller('v1/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @AdminAccess()
  create(@Body() dto: CreateProjectDto) {
    return this.projects.create(dto);
  }

  @Get()
  @AdminAccess()
  @ApiOperation({ summary: 'Every project, oldest first, paged by limit and offset.' })
  @ApiOkResponse({ type: ProjectListDoc })
  list(@Query() query: ListProjectsQuery) {
    return this.projects.list(query);
  }

  @Get('me')
  @KeyAccess()
  @ApiOperation({ summary: 'The project of the API key in the Authorization header (a key knows its project; the operator token has none: 403).' })
  @ApiOkResponse({ type: ProjectDoc })
  me(@CurrentPrincipal() principal: Principal & { kind: 'key' }) {
    return this.projects.get(principal.projectId);
  }

  @Get(':projectId')
  @ProjectOrAdminAccess()
  get(@Param('projectId') projectId: string) {
    return this.projects.get(projectId);
  }

  @Patch(':projectId')
  @AdminAccess()
  update(@Param('projectId') projectId: string, @Body() dto: UpdateProjectDto) {
    return this.projects.update(projectId, dto);
  }

  @Post(':projectId/keys')
  @AdminAccess()
  createKey(@Param('projectId') projectId: string) {
    return this.projects.createKey(projectId);
  }

  @Get(':projectId/keys')
  @AdminAccess()
  listKeys(@Param('projectId') projectId: string) {
    return this.projects.listKeys(projectId);
  }

  @Delete(':projectId/keys/:keyId')
  @AdminAccess()
  @HttpCode(204)
  revokeKey(@Param('projectId') projectId: string, @Param('keyId') keyId: string) {
    return this.projects.revokeKey(projectId, keyId);
  }
}
