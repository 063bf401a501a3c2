/**
 * A TS VOD whose audio starts before its video (AAC priming carried as an earlier audio timestamp)
 * lasts longer on a player's timeline than its EXTINFs say: hls.js maps the item's earliest
 * timestamp to its playlist start, so its video, and every later item, starts that lead later. The
 * channel lists the item as long as the player will play it: the lead is added to the first
 * segment of every track, so the item's duration (and the PDTs after it) stay true to air time.
 * It is a property of the VOD, computed once from the same bytes by every engine.
 */
import type { SourceSegment } from '../hls/parse-media';
import type { ParsedVod } from './parsed-vod';
import { buildTrack, type Track } from './track';

/**
 * The segment whose timestamps say the VOD's lead: the first of its lowest-bandwidth variant (every
 * variant is one encode with one priming; the smallest keyframe puts the audio's first PES soonest),
 * when it is clear TS.
 */
export function leadProbeSegment(vod: ParsedVod): SourceSegment | undefined {
  const lowest = [...vod.variants].sort((a, b) => a.bandwidth - b.bandwidth)[0];
  const first = lowest?.track.segments[0];
  if (!first || first.map || first.keys || first.byterange || first.gap) return undefined;
  return first;
}

function lengthenFirst(track: Track, leadMs: number): Track {
  const [first, ...rest] = track.segments;
  if (!first) return track;
  return buildTrack([{ ...first, durationMs: first.durationMs + leadMs }, ...rest]);
}

export function withAudioLead(vod: ParsedVod, leadMs: number): ParsedVod {
  if (leadMs <= 0) return vod;
  const lengthen = <T extends { track: Track }>(r: T): T => ({ ...r, track: lengthenFirst(r.track, leadMs) });
  const variants = vod.variants.map(lengthen);
  const audio = vod.audio.map(lengthen);
  const subtitles = vod.subtitles.map(lengthen);
  const maxSegmentMs = Math.max(
    ...variants.map((v) => v.track.maxSegmentMs),
    ...audio.map((a) => a.track.maxSegmentMs),
  );
  return { ...vod, variants, audio, subtitles, maxSegmentMs, audioLeadMs: leadMs, derived: new Map() };
}
