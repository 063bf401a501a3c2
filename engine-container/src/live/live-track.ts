/** The Track of a live item's rendition, built from the segments the item itself carries. */
import type { PlayoutItem } from '../playout/item';
import { buildTrack, type Track } from '../vod/track';

const memo = new WeakMap<PlayoutItem, Map<string, Track>>();

export function liveTrack(item: PlayoutItem, key: string): Track | undefined {
  const segments = item.live?.segments[key];
  if (!segments || segments.length === 0) return undefined;
  let tracks = memo.get(item);
  if (!tracks) {
    tracks = new Map();
    memo.set(item, tracks);
  }
  let track = tracks.get(key);
  if (!track) {
    track = buildTrack(
      segments.map(({ discontinuity, ...s }) => ({ ...s, discontinuity: discontinuity === 1 })),
    );
    tracks.set(key, track);
  }
  return track;
}
