import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Injectable } from '@nestjs/common';
import { APICallError, generateText, LanguageModel, ModelMessage, RetryError, stepCountIs } from 'ai';
import { Config } from '../../config/config';
import { createAgentTools } from '../tools/agent-tools';
import { CheckoutFs } from '../tools/checkout-fs';
import { SecretScrubber } from './secret-scrubber';
import { AgentTurnError } from './turn-errors';

export const NO_MODEL_MESSAGE = 'No model configured: set AGENT_BASE_URL and AGENT_MODEL.';

const SYSTEM_PROMPT = `You are Docent, an agent that edits a documentation repository.
The repository is checked out for you on a branch of its own; whatever you change is committed and proposed as a pull request.
Work only through the tools: list_files, read_file, search_files to look around; write_file, edit_file, delete_file to change files.
Paths are relative to the repository root. Nothing outside the repository and nothing under .git can be reached.
Read a file before editing it, keep the style of the surrounding docs, and change only what the request needs.
When you are done, answer without calling a tool: a short first line saying what you changed, then, if useful, a few lines of detail.
That answer becomes the commit message and the pull request description. If nothing needs to change, say why.`;

/**
 * Runs the model over one turn: the conversation so far plus the new prompt, with the six tools on the
 * checkout, until the model answers without a tool call. Returns that answer.
 */
@Injectable()
export class AgentModel {
  private readonly model: LanguageModel | null;

  constructor(
    private readonly config: Config,
    private readonly scrubber: SecretScrubber,
  ) {
    this.model =
      config.AGENT_BASE_URL && config.AGENT_MODEL
        ? createOpenAICompatible({ name: 'agent', baseURL: config.AGENT_BASE_URL, apiKey: config.AGENT_API_KEY })(config.AGENT_MODEL)
        : null;
  }

  get configured(): boolean {
    return this.model !== null;
  }

  /** `beforeStep` runs before every model call and every tool call; it throws to stop the turn. */
  async run(input: { dir: string; messages: ModelMessage[]; signal: AbortSignal; beforeStep: () => Promise<void>; beforeTool: () => void }): Promise<string> {
    if (!this.model) throw new AgentTurnError(NO_MODEL_MESSAGE, false);
    const tools = createAgentTools(await CheckoutFs.open(input.dir), input.beforeTool);
    const maxSteps = this.config.AGENT_MAX_STEPS;
    let result;
    try {
      result = await generateText({
        model: this.model,
        system: SYSTEM_PROMPT,
        messages: input.messages,
        tools,
        stopWhen: stepCountIs(maxSteps),
        // The SDK retries 429 and 5xx answers with exponential backoff (2 s, then 4 s).
        maxRetries: 2,
        abortSignal: input.signal,
        prepareStep: async () => {
          await input.beforeStep();
          return {};
        },
      });
    } catch (err) {
      throw this.translate(err);
    }
    const last = result.steps[result.steps.length - 1];
    if (last && last.toolCalls.length > 0) {
      throw new AgentTurnError(`The agent did not finish within ${maxSteps} steps (AGENT_MAX_STEPS).`, false);
    }
    return result.text.trim();
  }

  /** Model failures become errors a user can act on; anything else (aborts, our own errors) passes through. */
  private translate(err: unknown): unknown {
    if (err instanceof AgentTurnError) return err;
    if (RetryError.isInstance(err)) {
      const last = err.lastError;
      const status = APICallError.isInstance(last) ? last.statusCode : undefined;
      const times = err.errors.length;
      const message = status
        ? `The model endpoint answered HTTP ${status} ${times === 3 ? 'three' : times} times.`
        : `The model endpoint could not be reached (${times} attempts): ${this.describe(last)}`;
      return new AgentTurnError(message, false, { cause: err });
    }
    if (APICallError.isInstance(err)) {
      const message = err.statusCode
        ? `The model endpoint answered HTTP ${err.statusCode}: ${this.describe(err)}`
        : `The model endpoint could not be reached: ${this.describe(err)}`;
      return new AgentTurnError(message, false, { cause: err });
    }
    return err;
  }

  private describe(err: unknown): string {
    return this.scrubber.errorText(err);
  }
}
