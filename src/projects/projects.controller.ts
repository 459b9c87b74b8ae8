import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAccess, ProjectOrAdminAccess } from '../common/auth.guard';
import { CreateProjectDto, UpdateProjectDto } from './projects.dto';
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
