import { describe, expect, it } from 'vitest';
import { chromiumDescendants, parseStat } from '../../scripts/soak/realtime-player';

describe('the real-time player option', () => {
  it("finds every Chromium process below the soak's own, at any depth, and nothing else", () => {
    const processes = [
      { pid: 10, ppid: 1, comm: 'node' },
      { pid: 11, ppid: 10, comm: 'chromium' },
      { pid: 12, ppid: 11, comm: 'chromium' },
      { pid: 13, ppid: 12, comm: 'chrome_crashpad' },
      { pid: 14, ppid: 10, comm: 'ffmpeg' },
      { pid: 20, ppid: 1, comm: 'chromium' },
    ];
    expect(chromiumDescendants(processes, 10).sort()).toEqual([11, 12, 13]);
  });

  it('reads a process line of /proc whose command holds spaces and parentheses', () => {
    expect(parseStat('4242 (Chrome_Child (x)) S 4200 4242 4242 0 -1')).toEqual({
      pid: 4242,
      comm: 'Chrome_Child (x)',
      ppid: 4200,
    });
    expect(parseStat('garbage')).toBeUndefined();
  });
});
