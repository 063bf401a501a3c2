/**
 * The VODs a channel's log plays must be in the cache before its playlists render. Items appended by
 * another instance, or read back after a restart, are checked once each: O(new items) per advance.
 * Items checked once stay loaded, because the engine's sweep never evicts a VOD a tail still plays.
 */
import type { PlayoutItem } from '../playout/item';
import type { VodCache } from '../vod/vod-cache';

/**
 * Loads the VODs of items after `loadedThroughSeq`; returns the new mark (unchanged when a load
 * failed: it is retried on the next advance).
 */
export async function loadNewTailVods(
  items: readonly PlayoutItem[],
  loadedThroughSeq: number,
  vods: VodCache,
  onError: (uri: string, err: unknown) => void,
): Promise<number> {
  let checked = items.length;
  while (checked > 0 && items[checked - 1]!.seq > loadedThroughSeq) checked--;
  if (checked === items.length) return loadedThroughSeq;
  let complete = true;
  for (const item of items.slice(checked)) {
    // A live item carries its own segments (live/live-track.ts): nothing to load.
    if (item.live || vods.get(item.uri)) continue;
    await vods.load(item.uri).catch((err: unknown) => {
      complete = false;
      onError(item.uri, err);
    });
  }
  return complete ? items[items.length - 1]!.seq : loadedThroughSeq;
}
