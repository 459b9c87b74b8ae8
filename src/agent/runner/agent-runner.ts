import { Injectable, Logger } from '@nestjs/common';
import { ModelMessage } from 'ai';
import { Config } from '../../config/config';
import { GitCheckout, GitWorkspace } from '../git/git-workspace';
import { GitHubPulls, gitHubWebHosts, parseRepository } from '../github/github-pulls';
import { AgentModel, NO_MODEL_MESSAGE } from './agent-model';
import { SecretScrubber } from './secret-scrubber';
import { AgentTurnError, TurnAborted } from './turn-errors';

export { AgentTurnError, TurnAborted } from './turn-errors';

export interface TurnInput {
  jobId: string;
  /** cloneUrl already defaulted (repository + '.git') by the caller. */
  project: { repository: string | null; ref: string; cloneUrl: string | null };
  /** The message being processed now. */
  prompt: string;
  /** Earlier turns of this job, oldest first. */
  history: Array<{ prompt: string; summary: string | null }>;
  /** The job's pull request, if one exists already. */
  prLink: string | null;
  /** Aborted on archive or shutdown: stop at the next step, push nothing. */
  signal: AbortSignal;
  /** Checked between model steps and right before push (job not archived, lease still ours). */
  stillWanted(): Promise<boolean>;
}

export interface TurnResult {
  /** The model's final answer (plus a note when no pull request could be opened). */
  summary: string;
  prLink: string | null;
  /** Whether this turn committed anything. */
  changed: boolean;
  commitSha: string | null;
}

const SUBJECT_MAX = 72;

/**
 * One turn of an agent job: check the repository out on `docent/<job>`, let the model work with the
 * tools, commit what changed, push the branch, and open (or reuse) the job's pull request.
 * Throws AgentTurnError (a message safe to show) or TurnAborted (stopped; nothing pushed after it).
 */
@Injectable()
export class AgentRunner {
  private readonly logger = new Logger(AgentRunner.name);

  constructor(
    private readonly config: Config,
    private readonly model: AgentModel,
    private readonly git: GitWorkspace,
    private readonly pulls: GitHubPulls,
    private readonly scrubber: SecretScrubber,
  ) {
    this.gitHubHosts = gitHubWebHosts(config.GITHUB_API_URL);
  }

  /** Repositories on these hosts get a pull request; any other code host gets its branch pushed only. */
  private readonly gitHubHosts: ReadonlySet<string>;

  async runTurn(input: TurnInput): Promise<TurnResult> {
    if (!this.model.configured) throw new AgentTurnError(NO_MODEL_MESSAGE, false);
    const cloneUrl = input.project.cloneUrl;
    if (!cloneUrl) throw new AgentTurnError('The project has no repository to work on: set its repository or cloneUrl.', false);

    const deadline = AbortSignal.timeout(this.config.AGENT_TURN_TIMEOUT_MS);
    const signal = AbortSignal.any([input.signal, deadline]);
    const stopIfUnwanted = async () => {
      this.throwIfAborted(input.signal, deadline);
      if (!(await input.stillWanted())) throw new TurnAborted();
      this.throwIfAborted(input.signal, deadline);
    };

    let checkout: GitCheckout | null = null;
    try {
      await stopIfUnwanted();
      checkout = await this.git.checkout({ jobId: input.jobId, cloneUrl, ref: input.project.ref, signal });
      const text = await this.model.run({
        dir: checkout.dir,
        messages: this.conversation(input),
        signal,
        beforeStep: stopIfUnwanted,
        beforeTool: () => this.throwIfAborted(input.signal, deadline),
      });
      const finalText = text || 'Docent made the requested changes.';
      const subject = this.subject(text, input.prompt);

      const commitSha = await this.git.commitAll(checkout, subject, finalText, signal);
      const differs = await this.git.differsFromBase(checkout, signal);
      if (commitSha) {
        await stopIfUnwanted();
        await this.git.push(checkout, cloneUrl, signal);
      }

      let prLink = input.prLink;
      let summary = text || finalText;
      if (differs) {
        const name = parseRepository(input.project.repository, this.gitHubHosts);
        if (name) {
          await stopIfUnwanted();
          prLink = await this.pulls.ensurePull({ ...name, branch: checkout.branch, base: input.project.ref, title: subject, body: finalText, signal }).catch((err: unknown) => {
            // The job already has its pull request; a failed look-up must not fail a turn whose commit is pushed.
            if (!input.prLink || !(err instanceof AgentTurnError)) throw err;
            this.logger.warn(`Job ${input.jobId}: keeping ${input.prLink}: ${err.userMessage}`);
            return input.prLink;
          });
        } else if (!prLink) {
          summary += `\n\n(No pull request opened: the project's repository is not a GitHub web URL; the changes are on branch ${checkout.branch}.)`;
        }
      }
      this.logger.log(`Job ${input.jobId}: turn finished (${commitSha ? `commit ${commitSha.slice(0, 12)}` : 'no change'}${prLink ? `, ${prLink}` : ''})`);
      return { summary, prLink, changed: commitSha !== null, commitSha };
    } catch (err) {
      throw this.translate(err, input.signal, deadline, input.jobId);
    } finally {
      if (checkout) await this.git.remove(checkout).catch((err: unknown) => this.logger.warn(`Job ${input.jobId}: ${this.scrubber.scrub(String(err))}`));
    }
  }

  /** Earlier turns as user/assistant pairs, then the prompt of this turn as the last user message. */
  private conversation(input: TurnInput): ModelMessage[] {
    const messages: ModelMessage[] = [];
    for (const turn of input.history) {
      messages.push({ role: 'user', content: turn.prompt });
      if (turn.summary) messages.push({ role: 'assistant', content: turn.summary });
    }
    messages.push({ role: 'user', content: input.prompt });
    return messages;
  }

  /** First line of the model's answer (else of the prompt), without Markdown heading marks, at most 72 characters. */
  private subject(text: string, prompt: string): string {
    const firstLine = (s: string) =>
      s
        .split('\n')
        .map((l) => l.replace(/^#+\s*/, '').trim())
        .find(Boolean) ?? '';
    const line = firstLine(text) || firstLine(prompt) || 'Docent changes';
    return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1).trimEnd()}…` : line;
  }

  private throwIfAborted(input: AbortSignal, deadline: AbortSignal): void {
    if (input.aborted) throw new TurnAborted();
    if (deadline.aborted) throw this.timeoutError();
  }

  private timeoutError(): AgentTurnError {
    return new AgentTurnError(`The turn did not finish within ${this.config.AGENT_TURN_TIMEOUT_MS} ms (AGENT_TURN_TIMEOUT_MS).`, false);
  }

  private translate(err: unknown, input: AbortSignal, deadline: AbortSignal, jobId: string): Error {
    if (err instanceof TurnAborted) return err;
    if (input.aborted) return new TurnAborted();
    if (err instanceof AgentTurnError) {
      this.logger.warn(`Job ${jobId}: ${err.userMessage}`);
      return err;
    }
    if (deadline.aborted) return this.timeoutError();
    const detail = this.scrubber.scrub(err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
    this.logger.error(`Job ${jobId}: turn failed unexpectedly: ${detail}`);
    return new AgentTurnError(`The agent failed unexpectedly: ${detail}`, false, { cause: err });
  }
}
