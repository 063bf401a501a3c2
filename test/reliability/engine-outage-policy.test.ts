import { describe, expect, it } from 'vitest';
import {
  BACKOFF_MAX_MS,
  backoffMs,
  HEALTHY,
  LOG_INTERVAL_MS,
  recordFailure,
} from '../../engine-container/src/channel/outage/outage';

describe('a channel whose store fails', () => {
  it('waits longer after each consecutive failure, up to a ceiling', () => {
    const upper = (n: number) => backoffMs(n, () => 1);
    expect([1, 2, 3, 4].map(upper)).toEqual([500, 1000, 2000, 4000]);
    expect(upper(20)).toBe(BACKOFF_MAX_MS);
  });

  it('never retries sooner than half its backoff, whatever the jitter', () => {
    expect(backoffMs(3, () => 0)).toBe(1000);
  });

  it('logs the first failure at once', () => {
    expect(recordFailure(HEALTHY, 1000)).toMatchObject({ log: true, suppressed: 0 });
  });

  it('logs at most one line a minute while the outage lasts, counting the failures it folded', () => {
    let state = HEALTHY;
    const logged: number[] = [];
    for (let t = 0; t <= 3 * LOG_INTERVAL_MS; t += 1000) {
      const outcome = recordFailure(state, t);
      state = outcome.state;
      if (outcome.log) logged.push(outcome.suppressed);
    }
    expect(logged).toEqual([0, 59, 59, 59]);
    expect(state.sinceMs).toBe(0);
  });
});
