import { Module } from '@nestjs/common';
import { GitWorkspace } from '../git/git-workspace';
import { GitHubPulls } from '../github/github-pulls';
import { AgentModel } from './agent-model';
import { AgentRunner } from './agent-runner';
import { SecretScrubber } from './secret-scrubber';

/** The agent runner and its parts; needs Config (global). The worker imports this module and calls AgentRunner.runTurn. */
@Module({
  providers: [AgentRunner, AgentModel, GitWorkspace, GitHubPulls, SecretScrubber],
  exports: [AgentRunner, SecretScrubber],
})
export class AgentRunnerModule {}
