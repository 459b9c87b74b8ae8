import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * One scripted answer of the fake model. Exactly one of `toolCalls`, `text`, `status` or `hang`
 * says what to answer; `delayMs` and `waitFor` may be added to any step to hold the answer back.
 * A step with only `delayMs`/`waitFor` is a pure pause: after it, the NEXT step answers the same request.
 */
export interface ScriptStep {
  /** Answer with these tool calls (finish_reason "tool_calls"). */
  toolCalls?: Array<{ name: string; args: unknown }>;
  /** Answer with this text and no tool call (finish_reason "stop"): the end of a turn. */
  text?: string;
  /** Answer with this HTTP status and an OpenAI-style error body (e.g. 500, 429). */
  status?: number;
  /** Never answer; the request stays open until the client aborts it or the server closes. */
  hang?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait for this promise before answering (e.g. a gate the test opens). */
  waitFor?: Promise<unknown>;
}

/**
 * A script is either a list of steps consumed in order by successive requests (shared by every
 * caller), or a function choosing the step for each request (for concurrent jobs; see byConversation).
 * A request arriving after the list is used up gets HTTP 400 "script exhausted" (not retried by clients).
 */
export type Script = ScriptStep[] | ((body: ChatRequestBody, index: number) => ScriptStep | Promise<ScriptStep>);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChatRequestBody = { model: string; messages: Array<{ role: string; content?: any; tool_calls?: any[]; tool_call_id?: string }>; tools?: any[]; stream?: boolean; [key: string]: any };

export interface FakeOpenAI {
  /** Pass as AGENT_BASE_URL; ends with /v1. Requests go to `${baseURL}/chat/completions`. */
  baseURL: string;
  /** Every request body received, in arrival order (including ones answered with an error). */
  requests: ChatRequestBody[];
  /** The headers of each request, parallel to `requests` (check `authorization: Bearer <key>`). */
  headers: IncomingHttpHeaders[];
  /** Replaces the script; a list script starts again from its first step. */
  setScript(script: Script): void;
  /** Resolves once at least `count` requests have arrived (e.g. to know the model is mid-turn). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Closes the server and drops open connections (hanging requests see a socket error). */
  close(): Promise<void>;
}

/**
 * A script function that makes each conversation independent: the step for a request is
 * `steps(firstUserPrompt)[number of assistant messages already in the request]`. A retried or taken-over
 * turn starts again at step 0, and concurrent jobs don't consume each other's steps.
 * `firstUserPrompt` is the text of the last user message (the prompt of the current turn).
 */
export function byConversation(steps: (prompt: string, body: ChatRequestBody) => ScriptStep[]): Script {
  return (body) => {
    const users = body.messages.filter((m) => m.role === 'user');
    const last = users[users.length - 1];
    const prompt = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
    const lastUserIndex = body.messages.lastIndexOf(last);
    const position = body.messages.slice(lastUserIndex + 1).filter((m) => m.role === 'assistant').length;
    const list = mergePauses(steps(prompt, body));
    return list[position] ?? { status: 400 };
  };
}

/**
 * Folds each pause-only step into the answering step after it, so that in a conversation script
 * position N is the model's N-th answer; a pause would otherwise be returned again and again.
 */
function mergePauses(list: ScriptStep[]): ScriptStep[] {
  const out: ScriptStep[] = [];
  let pending: Promise<unknown>[] = [];
  let delay = 0;
  for (const step of list) {
    if (isPause(step)) {
      if (step.waitFor) pending.push(step.waitFor);
      delay += step.delayMs ?? 0;
      continue;
    }
    const waits = [...pending, ...(step.waitFor ? [step.waitFor] : [])];
    out.push({ ...step, delayMs: delay + (step.delayMs ?? 0) || undefined, waitFor: waits.length ? Promise.all(waits) : undefined });
    pending = [];
    delay = 0;
  }
  return out;
}

/** Starts a local OpenAI-compatible Chat Completions server on 127.0.0.1 that plays `script`. */
export async function startFakeOpenAI(script: Script = []): Promise<FakeOpenAI> {
  let current: Script = script;
  let cursor = 0;
  const requests: ChatRequestBody[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let callSeq = 0;

  const nextStep = async (body: ChatRequestBody, index: number): Promise<ScriptStep | undefined> => {
    if (typeof current === 'function') return current(body, index);
    return current[cursor++];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions')) {
      return sendJson(res, 404, { error: { message: `fake-openai: no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
    const index = requests.length;
    requests.push(body);
    headers.push(req.headers);
    for (const w of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));

    let step = await nextStep(body, index);
    // Only a list script moves on after a pause; a function script would return the same pause forever.
    while (step && isPause(step) && typeof current !== 'function') {
      await Promise.race([pause(step), closed]);
      if (res.destroyed || res.writableEnded) return;
      step = await nextStep(body, index);
    }
    if (!step) return sendJson(res, 400, { error: { message: 'fake-openai: script exhausted', type: 'invalid_request_error' } });
    await Promise.race([pause(step), closed]);
    if (res.destroyed || res.writableEnded) return;
    if (step.hang) return closed;
    if (step.status) return sendJson(res, step.status, { error: { message: `fake-openai: scripted HTTP ${step.status}`, type: 'server_error' } });

    const id = `chatcmpl-${++callSeq}`;
    const toolCalls = (step.toolCalls ?? []).map((call, i) => ({
      id: `call_${callSeq}_${i}`,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    }));
    const text = step.text ?? null;
    const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const created = Math.floor(Date.now() / 1000);

    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
    chunk({ role: 'assistant', content: '' }, null);
    if (text) chunk({ content: text }, null);
    toolCalls.forEach((call, i) => chunk({ tool_calls: [{ index: i, ...call }] }, null));
    chunk({}, finish, { usage });
    res.end('data: [DONE]\n\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake-openai: ${String(err)}`, type: 'server_error' } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    setScript(next) {
      current = next;
      cursor = 0;
    },
    waitForRequests(count, timeoutMs = 20_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake-openai: ${requests.length} of ${count} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isPause(step: ScriptStep): boolean {
  return (step.delayMs !== undefined || step.waitFor !== undefined) && step.toolCalls === undefined && step.text === undefined && step.status === undefined && !step.hang;
}

async function pause(step: ScriptStep): Promise<void> {
  if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
  if (step.waitFor) await step.waitFor;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
