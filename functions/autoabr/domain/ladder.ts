/**
 * Bitrate ladders from measured points. The convex hull is the upper-left boundary of all (bitrate,
 * VMAF) points across resolutions: for any bitrate, the best quality any resolution reaches there, with
 * diminishing returns (each segment's slope is lower than the one before). A good ladder picks its
 * rungs from that hull, so every rung is at the resolution that is best at its bitrate.
 */
import type { Rung } from './result-keys';

export interface RatePoint extends Rung {
  score: number;
}

export interface LadderOptions {
  /** Quality worth paying for: the top rung is the cheapest hull point reaching it. */
  targetScore: number;
  /** Minimum VMAF gap between neighbouring rungs (about one just-noticeable difference). */
  minStep: number;
}

export const DEFAULT_LADDER_OPTIONS: LadderOptions = { targetScore: 95, minStep: 6 };

/** (b - a) x (c - a): > 0 when a -> b -> c turns left (b lies below the chord a-c). */
const cross = (a: RatePoint, b: RatePoint, c: RatePoint): number =>
  (b.bitrate - a.bitrate) * (c.score - a.score) - (b.score - a.score) * (c.bitrate - a.bitrate);

/**
 * The upper convex hull in (bitrate, score), from the cheapest point to the best one (Andrew's monotone
 * chain). Points under a chord, and anything after the best score, are dropped.
 */
export function convexHull(points: readonly RatePoint[]): RatePoint[] {
  const sorted = [...points].sort((a, b) => a.bitrate - b.bitrate || b.score - a.score);
  const hull: RatePoint[] = [];
  for (const p of sorted) {
    const last = hull[hull.length - 1];
    if (last && last.bitrate === p.bitrate) continue; // a better point at this bitrate is already in
    while (hull.length >= 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, p) >= 0) hull.pop();
    hull.push(p);
  }
  let best = 0;
  hull.forEach((p, i) => {
    if (p.score > hull[best]!.score) best = i;
  });
  return hull.slice(0, best + 1);
}

/**
 * A suggested ladder, lowest rung first: the top rung is the cheapest hull point reaching `targetScore`
 * (or the best point if none does); walking down the hull, the next rung is the best point at least
 * `minStep` below the previous one, until no such point is left.
 */
export function suggestLadder(
  hull: readonly RatePoint[],
  options: LadderOptions = DEFAULT_LADDER_OPTIONS,
): RatePoint[] {
  if (hull.length === 0) return [];
  const top = hull.find((p) => p.score >= options.targetScore) ?? hull[hull.length - 1]!;
  const ladder = [top];
  for (;;) {
    const prev = ladder[ladder.length - 1]!;
    const below = hull.filter((p) => p.bitrate < prev.bitrate && p.score <= prev.score - options.minStep);
    const next = below[below.length - 1];
    if (!next) break;
    ladder.push(next);
  }
  return ladder.reverse();
}
