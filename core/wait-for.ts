/**
 * The one way to wait for something that happens elsewhere (a server starting, a channel going on air):
 * poll a condition until it holds, never sleep a fixed time and hope. Used by tests and by the local
 * runner. Fails with the last value seen (or the last error thrown), so a timeout says what was wrong.
 */
export interface WaitForOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Pause between probes (default 100 ms). */
  intervalMs?: number;
  /** What is being waited for, for the failure message. */
  what?: string;
}

export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

/**
 * Calls `probe` until `until(value)` is true and returns that value. A probe that throws counts as
 * "not yet" (a server still starting); its last error is reported if time runs out.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  until: (value: T) => boolean = (value) => Boolean(value),
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 100, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last: { value?: T; error?: unknown } = {};
  for (;;) {
    try {
      const value = await probe();
      if (until(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) {
      const seen =
        'error' in last ? `last error: ${String(last.error)}` : `last value: ${describe(last.value)}`;
      throw new WaitTimeoutError(`${what} not met within ${timeoutMs} ms (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
