/**
 * The longest the engine tick sleeps (maxTickInterval). The tick normally wakes when a channel is due;
 * the ceiling bounds how late it looks again when nothing is (a wake set meanwhile that no poke
 * announced). Set, maxTickInterval is the ceiling. Unset, the engine adapts it to the media: one second
 * more than the longest target duration among the channels, so that, like a set value, it exceeds every
 * channel's segment length while a channel of 2 s segments is looked at every 3 s, not every 10 s.
 */

/** The ceiling while no channel has a target duration yet (the contract's default maxTickInterval). */
export const DEFAULT_TICK_CEILING_MS = 10_000;
/** The smallest adaptive ceiling (target durations are whole seconds, at least 1). */
export const MIN_ADAPTIVE_TICK_CEILING_MS = 2000;

/** The ceiling for the channels' longest target duration (0 while none has one). */
export function adaptiveTickCeilingMs(longestTargetS: number): number {
  return longestTargetS > 0 ? (longestTargetS + 1) * 1000 : DEFAULT_TICK_CEILING_MS;
}
