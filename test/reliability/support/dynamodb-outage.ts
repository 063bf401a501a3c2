/**
 * What the store-outage suites share: short AWS timeouts, the time a request may take to fail under
 * them, a switch over the suite's own DynamoDB Local JVM, and the answer every request must give.
 */
import { expect } from 'vitest';
import { waitFor } from '../../../core/wait-for';
import { childProcessWith, processState } from './process';
import type { Answer } from './raw-http';

export const OUTAGE_TIMEOUTS = {
  AWS_CONNECT_TIMEOUT_MS: '500',
  AWS_REQUEST_TIMEOUT_MS: '1000',
  AWS_MAX_ATTEMPTS: '2',
};
/** Every attempt timing out, the SDK's backoff between them, and room for a loaded machine. */
export const OUTAGE_BUDGET_MS = 2 * 1000 + 2500;

/** Each signal's effect, read from the process's state letter (undefined: gone). */
const SIGNALLED: Record<'SIGSTOP' | 'SIGCONT' | 'SIGKILL', (state: string | undefined) => boolean> = {
  SIGSTOP: (state) => state === 'T',
  SIGCONT: (state) => state !== undefined && state !== 'T',
  SIGKILL: (state) => state === undefined || state === 'Z',
};

/** The DynamoDB Local this test process started, found by its port (e.g. system.urls.dynamodb). */
export class DynamoDbSwitch {
  /** Whether the JVM is stopped right now: a suite must never leave it so. */
  frozen = false;
  private readonly pid: number;

  constructor(endpoint: string) {
    const port = new URL(endpoint).port;
    const pid = childProcessWith(['DynamoDBLocal.jar', '-port', port]);
    if (!pid) throw new Error(`no DynamoDB Local child on port ${port}`);
    this.pid = pid;
  }

  /**
   * Sends the signal and resolves once it took effect (the JVM stopped, running again, or gone), so no
   * request a test sends next can reach a JVM the signal has not yet reached.
   */
  async signal(name: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL'): Promise<void> {
    process.kill(this.pid, name);
    this.frozen = name === 'SIGSTOP';
    const done = SIGNALLED[name];
    await waitFor(
      () => processState(this.pid),
      (state) => done(state),
      { timeoutMs: 10_000, intervalMs: 20, what: `DynamoDB Local (pid ${this.pid}) to take ${name}` },
    );
  }
}

/** A retryable 503 naming the store, within the budget. */
export function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status, answer.text.slice(0, 200)).toBe(503);
  expect(answer.headers['retry-after']).toMatch(/^\d+$/);
  expect(answer.json).toMatchObject({ code: 'store_unavailable' });
  expect(answer.elapsedMs).toBeLessThan(OUTAGE_BUDGET_MS);
}
