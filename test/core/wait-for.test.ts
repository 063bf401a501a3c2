import { describe, expect, it } from 'vitest';
import { WaitTimeoutError, waitFor } from '../../core/wait-for';

/** A probe answering the given values in turn (the last one forever), counting its calls. */
function answers<T>(...values: T[]) {
  let calls = 0;
  const probe = () => values[Math.min(calls++, values.length - 1)]!;
  return { probe, calls: () => calls };
}

describe('waitFor', () => {
  it('returns the first value that satisfies the condition', async () => {
    const { probe, calls } = answers(404, 404, 200);
    expect(await waitFor(probe, (status) => status === 200, { intervalMs: 1 })).toBe(200);
    expect(calls()).toBe(3);
  });

  it('waits for a truthy value by default', async () => {
    const { probe } = answers('', '', 'ready');
    expect(await waitFor(probe, undefined, { intervalMs: 1 })).toBe('ready');
  });

  it('counts a probe that throws as not yet', async () => {
    let calls = 0;
    const probe = () => {
      if (++calls < 3) throw new Error('connection refused');
      return 'up';
    };
    expect(await waitFor(probe, undefined, { intervalMs: 1 })).toBe('up');
  });

  it('fails with what it waited for and the last value seen when time runs out', async () => {
    const { probe } = answers({ status: 503 });
    const waiting = waitFor(probe, (res) => res.status === 200, {
      timeoutMs: 30,
      intervalMs: 5,
      what: 'the API',
    });
    await expect(waiting).rejects.toThrow(WaitTimeoutError);
    await expect(waiting).rejects.toThrow('the API not met within 30 ms (last value: {"status":503})');
  });

  it('fails with the last error when the probe never stopped throwing', async () => {
    const probe = () => {
      throw new Error('connection refused');
    };
    await expect(waitFor(probe, undefined, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      'last error: Error: connection refused',
    );
  });
});
