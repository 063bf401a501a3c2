/**
 * Which track of a given VOD feeds an output rendition. VODs of one channel may have different
 * ladders: video maps by rank when the variant counts match, else to the nearest bandwidth; a slate's
 * video maps by picture size instead (its still picture's bitrate says nothing of the rung it stands
 * in for, and a rung that changes its decoder's picture size and profile at once is one Chromium can
 * refuse a frame of: docs/media.md "The slate on the ladder"). Audio maps
 * by language (else the VOD's default); a missing subtitle language gets dummy WebVTT segments on the
 * video's boundaries, and a single whole-file WebVTT is cut into slices on those boundaries.
 */
import { type ParsedVod, referenceTrack, type VodMedia } from '../vod/parsed-vod';
import { deriveTrack, type Track } from '../vod/track';
import type { OutputAudio, OutputLadder } from './output-ladder';

export interface MappingOptions {
  alwaysMapBandwidthByNearest: boolean;
  dummySubtitleEndpoint: string;
  subtitleSliceEndpoint: string;
}

const byBandwidth = (bws: number[]): number[] =>
  bws.map((_, i) => i).sort((a, b) => bws[a]! - bws[b]! || a - b);

export function mapVariantIndex(
  outBandwidths: number[],
  k: number,
  vodBandwidths: number[],
  nearest: boolean,
): number {
  if (!nearest && outBandwidths.length === vodBandwidths.length) {
    const rank = byBandwidth(outBandwidths).indexOf(k);
    return byBandwidth(vodBandwidths)[rank]!;
  }
  const want = outBandwidths[k]!;
  let best = 0;
  for (let i = 1; i < vodBandwidths.length; i++) {
    if (Math.abs(vodBandwidths[i]! - want) < Math.abs(vodBandwidths[best]! - want)) best = i;
  }
  return best;
}

const VIDEO_CODEC = /avc|hvc|hev|av01|vp0|vp9|dvh|dva/i;
interface Rung {
  codecs?: string;
  width?: number;
  resolution?: unknown;
}
/** An audio-only rung says so by having neither a resolution nor a video codec. */
const hasVideo = (v: Rung): boolean =>
  v.width !== undefined || v.resolution !== undefined || VIDEO_CODEC.test(v.codecs ?? '');

/**
 * Output variant k's source variant: video rungs map among the VOD's video rungs and an audio-only rung
 * among its audio-only rungs (by rank when the counts match, else nearest bandwidth), so a video rung
 * never turns audio-only. A kind the VOD lacks maps to the nearest of all its variants.
 */
export function variantIndexFor(
  ladder: OutputLadder,
  k: number,
  vod: { variants: ReadonlyArray<Rung & { bandwidth: number }> },
  nearest: boolean,
): number {
  const kind = hasVideo(ladder.variants[k]!);
  const outPool = ladder.variants.flatMap((v, i) => (hasVideo(v) === kind ? [i] : []));
  const sameKind = vod.variants.flatMap((v, i) => (hasVideo(v) === kind ? [i] : []));
  const pool = sameKind.length > 0 ? sameKind : vod.variants.map((_, i) => i);
  const index = mapVariantIndex(
    outPool.map((i) => ladder.variants[i]!.bandwidth),
    outPool.indexOf(k),
    pool.map((i) => vod.variants[i]!.bandwidth),
    nearest || sameKind.length === 0,
  );
  return pool[index]!;
}

function audioGroupFor(vod: ParsedVod, out: OutputAudio): string {
  const groups = [...new Set(vod.audio.map((a) => a.groupId))];
  const byChannels = out.channels
    ? groups.find((g) => vod.audio.some((a) => a.groupId === g && a.channels === out.channels))
    : undefined;
  const byCodec = out.codec
    ? vod.variants.find((v) => v.audioGroup && v.codecs?.includes(out.codec!))?.audioGroup
    : undefined;
  const sameName = groups.find((g) => g.replace(/[^A-Za-z0-9_.-]/g, '_') === out.groupId);
  return byChannels ?? byCodec ?? sameName ?? groups[0]!;
}

function pickByLanguage(list: VodMedia[], language: string): VodMedia | undefined {
  return list.find((m) => m.language === language) ?? list.find((m) => m.default) ?? list[0];
}

function derived(vod: ParsedVod, key: string, make: () => Track): Track {
  let track = vod.derived.get(key);
  if (!track) {
    track = make();
    vod.derived.set(key, track);
  }
  return track;
}

function subtitleTrack(vod: ParsedVod, language: string, opts: MappingOptions): Track {
  const ref = referenceTrack(vod);
  const source = vod.gap ? undefined : vod.subtitles.find((s) => s.language === language);
  if (!source) {
    const endpoint = opts.dummySubtitleEndpoint;
    return derived(vod, `dummy|${endpoint}`, () =>
      deriveTrack(ref, (s, d) => `${endpoint}?startMs=${s}&durationMs=${d}`),
    );
  }
  if (source.track.segments.length > 1 || ref.segments.length === 1) return source.track;
  const endpoint = opts.subtitleSliceEndpoint;
  const uri = encodeURIComponent(source.track.segments[0]!.uri);
  return derived(vod, `slice|${endpoint}|${language}`, () =>
    deriveTrack(ref, (s, d) => `${endpoint}?uri=${uri}&startMs=${s}&endMs=${s + d}`),
  );
}

/**
 * Output variant k's source variant by picture size: the VOD's video rung nearest in height (the
 * smaller on a tie), or by bandwidth (variantIndexFor) when either side has no resolution.
 */
export function variantIndexBySize(
  ladder: OutputLadder,
  k: number,
  vod: { variants: ReadonlyArray<Rung & { bandwidth: number; resolution?: { height: number } }> },
): number {
  const want = ladder.variants[k]!.height;
  const sized = vod.variants.flatMap((v, i) => (v.resolution ? [{ i, height: v.resolution.height }] : []));
  if (want === undefined || sized.length === 0) return variantIndexFor(ladder, k, vod, true);
  const distance = (h: number) => Math.abs(h - want);
  return sized.reduce((best, v) =>
    distance(v.height) < distance(best.height) ||
    (distance(v.height) === distance(best.height) && v.height < best.height)
      ? v
      : best,
  ).i;
}

/** How a VOD's video rungs meet the channel's: a programme by bandwidth, a slate by picture size. */
export type VideoMapping = 'bandwidth' | 'size';

/** The track of `vod` that plays as output rendition `key` of `ladder`. */
export function trackFor(
  vod: ParsedVod,
  ladder: OutputLadder,
  key: string,
  opts: MappingOptions,
  video: VideoMapping = 'bandwidth',
): Track {
  if (key.startsWith('v')) {
    if (vod.variants.length === 1) return referenceTrack(vod);
    const k = Number(key.slice(1));
    const index =
      video === 'size'
        ? variantIndexBySize(ladder, k, vod)
        : variantIndexFor(ladder, k, vod, opts.alwaysMapBandwidthByNearest);
    return vod.variants[index]!.track;
  }
  if (key.startsWith('a:')) {
    const out = ladder.audio.find((a) => `a:${a.groupId}:${a.language}` === key);
    // A VOD with muxed audio only: the reference variant carries the sound (documented limitation).
    if (!out || vod.audio.length === 0) return referenceTrack(vod);
    const group = audioGroupFor(vod, out);
    return pickByLanguage(
      vod.audio.filter((a) => a.groupId === group),
      out.language,
    )!.track;
  }
  return subtitleTrack(vod, key.slice(2), opts);
}
