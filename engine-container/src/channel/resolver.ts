/**
 * Binds the window function to this process's VOD cache and the engine's mapping options. A track is a
 * pure function of (parsed VOD, ladder, key) for fixed options, and every request asks it for each
 * item of the window: remembered per VOD object and ladder object (both immutable once made; a reloaded
 * VOD is a new object), so a request maps no rendition twice. A slate's video maps onto the ladder by
 * picture size, a programme's by bandwidth (map-rendition.ts): remembered apart, since one VOD may be both.
 * A TS VOD on a channel with demuxed audio is listed without its audio's overhang (audio-timeline.ts).
 */
import { type MappingOptions, trackFor, type VideoMapping } from '../ladder/map-rendition';
import { liveTrack } from '../live/live-track';
import { REFERENCE_KEY } from '../playout/append';
import { vodOnLadder } from '../playout/audio-timeline';
import type { TrackResolver } from '../playout/window';
import { type ParsedVod, referenceTrack } from '../vod/parsed-vod';
import type { Track } from '../vod/track';
import type { VodCache } from '../vod/vod-cache';

export function trackResolver(vods: VodCache, opts: MappingOptions): TrackResolver {
  const mapped = new WeakMap<ParsedVod, WeakMap<object, Map<string, Track>>>();
  const slates = new WeakMap<ParsedVod, WeakMap<object, Map<string, Track>>>();
  return (item, key) => {
    if (item.live) return liveTrack(item, key);
    const loaded = vods.get(item.uri);
    if (!loaded) return undefined;
    const vod = vodOnLadder(loaded, item.ladder);
    if (key === REFERENCE_KEY) return referenceTrack(vod);
    const video: VideoMapping = item.kind === 'slate' ? 'size' : 'bandwidth';
    const memo = video === 'size' ? slates : mapped;
    let byLadder = memo.get(vod);
    if (!byLadder) {
      byLadder = new WeakMap();
      memo.set(vod, byLadder);
    }
    let byKey = byLadder.get(item.ladder);
    if (!byKey) {
      byKey = new Map();
      byLadder.set(item.ladder, byKey);
    }
    let track = byKey.get(key);
    if (!track) {
      track = trackFor(vod, item.ladder, key, opts, video);
      byKey.set(key, track);
    }
    return track;
  };
}
