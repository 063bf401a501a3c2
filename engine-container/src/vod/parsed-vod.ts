/**
 * A VOD as playout needs it: its variants and demuxed renditions, each a Track. Parsed once per URI
 * and shared by every channel that plays it (see vod-cache.ts), so it must never be mutated after
 * construction, except for `derived`, a memo of dummy/sliced subtitle tracks built on first use.
 */
import type { MasterMedia, MasterVariant } from '../hls/parse-master';
import type { MediaPlaylist } from '../hls/parse-media';
import { buildTrack, type Track } from './track';

export interface VodVariant extends Omit<MasterVariant, 'uri'> {
  uri: string;
  track: Track;
}

export interface VodMedia extends Omit<MasterMedia, 'uri' | 'type'> {
  type: 'AUDIO' | 'SUBTITLES';
  uri: string;
  track: Track;
}

export interface ParsedVod {
  uri: string;
  /** In source order; variants[0] is the reference rendition whose durations define an item's length. */
  variants: VodVariant[];
  audio: VodMedia[];
  subtitles: VodMedia[];
  /** The source's TYPE=CLOSED-CAPTIONS declarations (the captions travel inside the video segments). */
  captions?: MasterMedia[];
  /** Longest video/audio segment (subtitles are re-cut, so they do not count). */
  maxSegmentMs: number;
  /** ms added to the first and last segments for a TS VOD's audio lead and overhang (audio-lead.ts). */
  audioPadding?: { leadMs: number; tailMs: number };
  /** Set for the synthetic gap VOD: segments are rendered with EXT-X-GAP. */
  gap?: boolean;
  derived: Map<string, Track>;
}

export const referenceTrack = (vod: ParsedVod): Track => vod.variants[0]!.track;

export function buildParsedVod(
  uri: string,
  variants: Array<{ variant: MasterVariant; playlist: MediaPlaylist }>,
  media: Array<{ media: MasterMedia & { uri: string }; playlist: MediaPlaylist }>,
  captions: MasterMedia[] = [],
): ParsedVod {
  const vodVariants = variants.map(({ variant, playlist }) => ({
    ...variant,
    track: buildTrack(playlist.segments),
  }));
  const vodMedia = media.map(({ media: m, playlist }) => ({
    ...m,
    type: m.type as 'AUDIO' | 'SUBTITLES',
    track: buildTrack(playlist.segments),
  }));
  const audio = vodMedia.filter((m) => m.type === 'AUDIO');
  const subtitles = vodMedia.filter((m) => m.type === 'SUBTITLES');
  const maxSegmentMs = Math.max(
    ...vodVariants.map((v) => v.track.maxSegmentMs),
    ...audio.map((a) => a.track.maxSegmentMs),
  );
  return { uri, variants: vodVariants, audio, subtitles, captions, maxSegmentMs, derived: new Map() };
}
