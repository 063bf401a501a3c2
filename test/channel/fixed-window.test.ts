/** The rate limiter's fixed windows: aligned to the epoch, with the seconds left rounded up. */
import { describe, expect, it } from 'vitest';
import { fixedWindow } from '../../functions/channel/stores/rate-limit-store';

const at = (iso: string) => Date.parse(iso);

describe('fixedWindow', () => {
  it('puts an instant in the day that holds it', () => {
    const window = fixedWindow(at('2031-06-01T13:45:00Z'), 86_400);
    expect(window.startMs).toBe(at('2031-06-01T00:00:00Z'));
    expect(window.endMs).toBe(at('2031-06-02T00:00:00Z'));
  });

  it('starts a new window exactly at the boundary', () => {
    expect(fixedWindow(at('2031-06-02T00:00:00Z'), 86_400).startMs).toBe(at('2031-06-02T00:00:00Z'));
  });

  it('rounds the seconds left up to whole seconds', () => {
    expect(fixedWindow(at('2031-06-01T12:59:58.500Z'), 3600).secondsLeft).toBe(2);
  });
});
