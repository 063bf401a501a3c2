/**
 * What a channel does while the shared playout log cannot be reached: pure decisions, so the fake-clock
 * tests can hold them. A failed advance is retried after an exponential backoff with jitter (never a
 * tight loop), and the failure is logged at most once a minute per channel while the outage lasts.
 */

export interface OutageState {
  /** Consecutive failed advances (0: healthy). */
  failures: number;
  /** When the outage began (the first failure), for the log and /health. */
  sinceMs?: number;
  /** When a failure was last logged. */
  loggedAtMs?: number;
  /** Failures since the last logged line, reported with the next one. */
  unlogged: number;
}

export const HEALTHY: OutageState = Object.freeze({ failures: 0, unlogged: 0 });

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
export const LOG_INTERVAL_MS = 60_000;

/** Delay before the next attempt after `failures` consecutive failures: full jitter over 2^n × base. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  // Half fixed, half jitter: never sooner than half the ceiling, so a thousand channels spread out
  // without any of them retrying in a tight loop.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface FailureOutcome {
  state: OutageState;
  /** Log this failure now (with `suppressed` failures folded into it). */
  log: boolean;
  suppressed: number;
}

/** The state after one more failed advance at `nowMs`, and whether it is this minute's log line. */
export function recordFailure(state: OutageState, nowMs: number): FailureOutcome {
  const failures = state.failures + 1;
  const sinceMs = state.sinceMs ?? nowMs;
  const due = state.loggedAtMs === undefined || nowMs - state.loggedAtMs >= LOG_INTERVAL_MS;
  if (!due)
    return {
      state: { ...state, failures, sinceMs, unlogged: state.unlogged + 1 },
      log: false,
      suppressed: 0,
    };
  return {
    state: { failures, sinceMs, loggedAtMs: nowMs, unlogged: 0 },
    log: true,
    suppressed: state.unlogged,
  };
}
