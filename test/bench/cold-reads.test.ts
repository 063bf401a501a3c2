import { describe, expect, it } from 'vitest';
import { type ColdReads, describeColdReads, measureColdReads } from '../../scripts/bench/cold-reads';

describe("the host's cold reads", () => {
  it('walks each group once a cycle, times the walks after the first cycle, and sets each cold walk beside a warm one', async () => {
    // 50 groups, 10 a tick of 100 ms: a cycle of 0.5 s untimed, then 3 ticks timed.
    const r = await measureColdReads({ groups: 50, everyS: 0.5, seconds: 0.3 });
    expect(r.everyS).toBe(0.5);
    expect(r.walks).toBe(30);
    for (const side of [r.cold, r.warm]) {
      expect(side.p50Us).toBeGreaterThan(0);
      expect(side.maxUs).toBeGreaterThanOrEqual(side.p90Us);
      expect(side.p90Us).toBeGreaterThanOrEqual(side.p50Us);
    }
    expect(r.ratio).toBeCloseTo(r.cold.meanUs / r.warm.meanUs, 6);
  });

  it('is described by how long memory was left and how many times a warm read it cost', () => {
    const r: ColdReads = {
      groups: 10_000,
      everyS: 40,
      walks: 5000,
      cold: { p50Us: 137.6, meanUs: 159.4, p90Us: 356.1, maxUs: 3743.7 },
      warm: { p50Us: 1.5, meanUs: 2.2, p90Us: 3, maxUs: 186.5 },
      ratio: 159.4 / 2.2,
    };
    expect(describeColdReads(r)).toBe(
      'a read of memory untouched for 40 s cost 72.5x a warm one (means 159.4 / 2.2 µs a group of 200 ' +
        'objects; cold median 137.6, p90 356.1, max 3743.7 µs; 5000 walks)',
    );
  });
});
