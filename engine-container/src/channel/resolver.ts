/** Binds the window function to this process's VOD cache and the engine's mapping options. */
import { type MappingOptions, trackFor } from '../ladder/map-rendition';
import { liveTrack } from '../live/live-track';
import { REFERENCE_KEY } from '../playout/append';
import type { TrackResolver } from '../playout/window';
import { referenceTrack } from '../vod/parsed-vod';
import type { VodCache } from '../vod/vod-cache';

export function trackResolver(vods: VodCache, opts: MappingOptions): TrackResolver {
  return (item, key) => {
    if (item.live) return liveTrack(item, key);
    const vod = vods.get(item.uri);
    if (!vod) return undefined;
    return key === REFERENCE_KEY ? referenceTrack(vod) : trackFor(vod, item.ladder, key, opts);
  };
}
