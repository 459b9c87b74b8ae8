/**
 * A turn that cannot finish. `userMessage` is safe to show (it becomes the job's `error`: no secrets,
 * no internal paths). Transient failures (model 429/5xx, git and GitHub hiccups) are already retried
 * inside the turn, so most errors are final (`retryable: false`); `retryable: true` only when running the
 * turn again is expected to succeed (the job's branch moved on the remote during the turn).
 */
export class AgentTurnError extends Error {
  constructor(
    readonly userMessage: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(userMessage, options);
    this.name = 'AgentTurnError';
  }
}

/** The turn stopped because it is no longer wanted (archived, shutting down, lease lost); nothing was pushed after it. */
export class TurnAborted extends Error {
  constructor(message = 'The turn was stopped before it finished.') {
    super(message);
    this.name = 'TurnAborted';
  }
}
