/**
 * The one retry loop: runs `fn`, and on an error that `shouldRetry` accepts waits the next of
 * `delaysMs` and tries again; the last error (or any once `signal` is aborted) is thrown as it is.
 */
export async function retry<T>(
  fn: () => Promise<T>,
  options: { delaysMs: readonly number[]; shouldRetry?: (err: unknown) => boolean; signal?: AbortSignal; onRetry?: (err: unknown) => void },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (options.signal?.aborted || attempt >= options.delaysMs.length || !(options.shouldRetry?.(err) ?? true)) throw err;
      options.onRetry?.(err);
      await new Promise((resolve) => setTimeout(resolve, options.delaysMs[attempt]));
    }
  }
}
