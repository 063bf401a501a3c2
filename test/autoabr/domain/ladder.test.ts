import { describe, expect, it } from 'vitest';
import { convexHull, type RatePoint, suggestLadder } from '../../../functions/autoabr/domain/ladder';

const p = (height: number, bitrate: number, score: number): RatePoint => ({
  width: (height * 16) / 9,
  height,
  bitrate,
  score,
});

// A typical measurement: low resolutions win at low bitrates, high ones at high bitrates.
const points = [
  p(360, 300_000, 60),
  p(360, 1_000_000, 78),
  p(360, 3_000_000, 82),
  p(720, 300_000, 50),
  p(720, 1_000_000, 80),
  p(720, 3_000_000, 92),
  p(1080, 1_000_000, 72),
  p(1080, 3_000_000, 94),
  p(1080, 6_000_000, 97),
];

describe('convex hull', () => {
  it('keeps the best resolution at each bitrate, from the cheapest point to the best one', () => {
    const hull = convexHull(points);
    expect(hull.map((x) => [x.height, x.bitrate])).toEqual([
      [360, 300_000],
      [720, 1_000_000],
      [1080, 3_000_000],
      [1080, 6_000_000],
    ]);
  });

  it('is concave: each segment buys less quality per bit than the one before', () => {
    const hull = convexHull(points);
    const slopes = hull.slice(1).map((b, i) => (b.score - hull[i]!.score) / (b.bitrate - hull[i]!.bitrate));
    for (let i = 1; i < slopes.length; i++) expect(slopes[i]).toBeLessThanOrEqual(slopes[i - 1]!);
  });

  it('drops points beyond the best score', () => {
    const hull = convexHull([p(360, 100, 50), p(360, 200, 90), p(360, 400, 89)]);
    expect(hull.map((x) => x.bitrate)).toEqual([100, 200]);
  });

  it('is every point for a single point and empty for none', () => {
    expect(convexHull([p(360, 100, 50)])).toHaveLength(1);
    expect(convexHull([])).toEqual([]);
  });
});

describe('suggested ladder', () => {
  it('tops out at the cheapest hull point reaching the target score', () => {
    const ladder = suggestLadder(convexHull(points), { targetScore: 93, minStep: 6 });
    expect(ladder[ladder.length - 1]).toMatchObject({ height: 1080, bitrate: 3_000_000 });
  });

  it('keeps rungs at least the minimum step apart, lowest first', () => {
    const ladder = suggestLadder(convexHull(points), { targetScore: 95, minStep: 6 });
    for (let i = 1; i < ladder.length; i++) {
      expect(ladder[i]!.score - ladder[i - 1]!.score).toBeGreaterThanOrEqual(6);
      expect(ladder[i]!.bitrate).toBeGreaterThan(ladder[i - 1]!.bitrate);
    }
    expect(ladder.map((x) => x.bitrate)).toEqual([300_000, 1_000_000, 6_000_000]);
  });

  it('uses the best point as the top when nothing reaches the target', () => {
    const ladder = suggestLadder(convexHull(points), { targetScore: 99, minStep: 50 });
    expect(ladder).toEqual([p(1080, 6_000_000, 97)]);
  });
});
