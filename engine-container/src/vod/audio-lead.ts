/**
 * A TS VOD whose audio starts before its video (AAC priming carried as an earlier audio timestamp)
 * or ends after it (on a whole AAC frame) lasts longer on a player's timeline than its EXTINFs say:
 * hls.js maps the item's earliest timestamp to its playlist start and starts the next item where
 * this one's latest timestamp ends, so every later item starts that much later. The channel lists
 * the item as long as the player will play it: the lead is added to the first segment of every
 * track and the overhang to the last, so the item's duration (and the PDTs after it) stay true to
 * air time. It is a property of the VOD, computed once from the same bytes by every engine.
 */
import type { SourceSegment } from '../hls/parse-media';
import { audioLeadMs, MAX_AUDIO_LEAD_MS, type TsStartTimes } from '../hls/ts-start-times';
import type { ParsedVod } from './parsed-vod';
import { buildTrack, type Track } from './track';

export interface AudioPadding {
  /** Added to the first segment: the audio's start before the video's. */
  leadMs: number;
  /** Added to the last segment: the audio's end after the video's. */
  tailMs: number;
}

/**
 * The padding of a TS VOD from its first segment's first timestamps, its last segment's audio end
 * (90 kHz) and its listed duration: the video ends where its EXTINFs say after its first PTS.
 */
export function audioPadding(
  first: TsStartTimes,
  audioEnd: number | undefined,
  listedMs: number,
): AudioPadding {
  const leadMs = audioLeadMs(first);
  if (audioEnd === undefined || first.videoPts === undefined) return { leadMs, tailMs: 0 };
  const overhang = Math.round((audioEnd - first.videoPts) / 90 - listedMs);
  return { leadMs, tailMs: overhang > 0 && overhang <= MAX_AUDIO_LEAD_MS ? overhang : 0 };
}

/** The lowest-bandwidth variant: every variant is one encode; its segments are the smallest to read. */
function lowestVariantTrack(vod: ParsedVod): Track | undefined {
  return [...vod.variants].sort((a, b) => a.bandwidth - b.bandwidth)[0]?.track;
}

const isClearTs = (s: SourceSegment | undefined): s is SourceSegment =>
  s !== undefined && !s.map && !s.keys && !s.byterange && !s.gap;

/** The segments whose timestamps say the VOD's padding (first and last of its lowest variant), when clear TS. */
export function paddingProbe(
  vod: ParsedVod,
): { first: SourceSegment; last: SourceSegment; listedMs: number } | undefined {
  const track = lowestVariantTrack(vod);
  const first = track?.segments[0];
  const last = track?.segments.at(-1);
  if (!track || !isClearTs(first) || !isClearTs(last)) return undefined;
  return { first, last, listedMs: track.totalMs };
}

function pad(track: Track, { leadMs, tailMs }: AudioPadding): Track {
  const n = track.segments.length;
  if (!n) return track;
  const segments = track.segments.map((s, i) => {
    const extra = (i === 0 ? leadMs : 0) + (i === n - 1 ? tailMs : 0);
    return extra ? { ...s, durationMs: s.durationMs + extra } : s;
  });
  return buildTrack(segments);
}

const withoutTail = new WeakMap<ParsedVod, ParsedVod>();

/**
 * The VOD listed with its audio lead only (playout/audio-timeline.ts: a channel with demuxed audio);
 * one object per VOD, so what is remembered per VOD object is remembered once.
 */
export function withoutAudioTail(vod: ParsedVod): ParsedVod {
  const padding = vod.audioPadding;
  if (!padding?.tailMs) return vod;
  let leadOnly = withoutTail.get(vod);
  if (!leadOnly) {
    leadOnly = withPadding(vod, { leadMs: 0, tailMs: -padding.tailMs }, { ...padding, tailMs: 0 });
    withoutTail.set(vod, leadOnly);
  }
  return leadOnly;
}

export function withAudioPadding(vod: ParsedVod, padding: AudioPadding): ParsedVod {
  if (padding.leadMs <= 0 && padding.tailMs <= 0) return vod;
  return withPadding(vod, padding, padding);
}

/** The VOD with `extra` added to its tracks' first and last segments; `padding` is what it then carries. */
function withPadding(vod: ParsedVod, extra: AudioPadding, padding: AudioPadding): ParsedVod {
  const padded = <T extends { track: Track }>(r: T): T => ({ ...r, track: pad(r.track, extra) });
  const variants = vod.variants.map(padded);
  const audio = vod.audio.map(padded);
  const subtitles = vod.subtitles.map(padded);
  const maxSegmentMs = Math.max(
    ...variants.map((v) => v.track.maxSegmentMs),
    ...audio.map((a) => a.track.maxSegmentMs),
  );
  return { ...vod, variants, audio, subtitles, maxSegmentMs, audioPadding: padding, derived: new Map() };
}
