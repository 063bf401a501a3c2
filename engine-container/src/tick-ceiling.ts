/**
 * How long the engine tick sleeps between looks at its channels: at least its floor, at most its
 * ceiling (maxTickInterval). The tick normally wakes when a channel is due; the ceiling bounds how late
 * it looks again when nothing is (a wake set meanwhile that no poke announced). Set, maxTickInterval is
 * the ceiling. Unset, the engine adapts it to the media: one second more than the longest target
 * duration among the channels, so that, like a set value, it exceeds every channel's segment length
 * while a channel of 2 s segments is looked at every 3 s, not every 10 s.
 */

/** The ceiling while no channel has a target duration yet (the contract's default maxTickInterval). */
export const DEFAULT_TICK_CEILING_MS = 10_000;
/** The smallest adaptive ceiling (target durations are whole seconds, at least 1). */
export const MIN_ADAPTIVE_TICK_CEILING_MS = 2000;

/** The ceiling for the channels' longest target duration (0 while none has one). */
export function adaptiveTickCeilingMs(longestTargetS: number): number {
  return longestTargetS > 0 ? (longestTargetS + 1) * 1000 : DEFAULT_TICK_CEILING_MS;
}

/**
 * The shortest the tick sleeps, whatever the channels ask: the channels due within it share one tick.
 * 10,000 channels created over two seconds start items at hundreds of distinct milliseconds a second:
 * with a tick for each, the idle engine used about 3.2 % of a core; with a 20 ms floor 2.3 %, with this
 * one 1.8 % (medians, docs/benchmarks.md, eleventh pass). A wake is served at most this late: an item
 * start announced, a live source looked at. What players are served never waits on a tick.
 */
export const MIN_TICK_MS = 100;

/**
 * The tick's sleep until the channels' earliest wake (`delayMs` from now; negative when overdue), at
 * least MIN_TICK_MS and at most the ceiling (which wins if set below the floor). A set maxTickInterval
 * is the ceiling; else the adaptive one, read only when the sleep is longer than its least value, since
 * reading it may scan every channel.
 */
export function tickSleepMs(
  delayMs: number,
  maxTickInterval: number | undefined,
  adaptiveCeilingMs: () => number,
): number {
  const sleepMs = Math.max(MIN_TICK_MS, delayMs);
  if (maxTickInterval !== undefined) return Math.min(maxTickInterval, sleepMs);
  return sleepMs > MIN_ADAPTIVE_TICK_CEILING_MS ? Math.min(adaptiveCeilingMs(), sleepMs) : sleepMs;
}
