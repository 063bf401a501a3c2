/**
 * A channel-service channel's playout as guide programmes, pure: nothing before the channel was made
 * (its first item starts a little in the past, and a log may hold an earlier channel of the same
 * name), and a preroll folded into the item it leads in to, so a loop of one VOD is one programme
 * per loop under the VOD's title (docs/epg.md).
 */
import type { EpgEntry } from '../../../core/epg/epg';

export function playoutProgrammes(
  items: readonly EpgEntry[],
  range: { fromMs: number; toMs: number },
  createdAtMs: number,
): EpgEntry[] {
  const out: EpgEntry[] = [];
  let leadIn: number | undefined;
  for (const item of items) {
    if (item.type === 'PREROLL') {
      leadIn ??= item.start_time;
      continue;
    }
    out.push({ ...item, start_time: Math.min(leadIn ?? item.start_time, item.start_time) });
    leadIn = undefined;
  }
  const fromMs = Math.max(range.fromMs, createdAtMs);
  return out
    .filter((p) => p.end_time > fromMs && p.start_time < range.toMs)
    .map((p) => ({ ...p, start_time: Math.max(p.start_time, createdAtMs) }));
}
