/**
 * Loads a VOD by URI: a master playlist (its variants plus, when enabled, demuxed audio and WebVTT
 * renditions) or a bare media playlist (one variant). Every failure becomes a VodLoadError with a
 * stable code, which the planner turns into a slate and reports to the asset manager.
 */

import { FetchError, type FetchLike, fetchOkPrefix, fetchOkText } from '../../../core/fetch/bounded-fetch';
import { TimeoutError, withTimeout } from '../../../core/timeout';
import { isMasterPlaylist, type MasterMedia, PlaylistError, parseMasterPlaylist } from '../hls/parse-master';
import { type MediaPlaylist, parseMediaPlaylist } from '../hls/parse-media';
import { tsAudioEnd } from '../hls/ts-audio-end';
import { tsStartTimes } from '../hls/ts-start-times';
import { audioPadding, paddingProbe, withAudioPadding } from './audio-lead';
import { buildParsedVod, type ParsedVod } from './parsed-vod';

export interface VodLoadOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxPlaylistBytes: number;
  useDemuxedAudio: boolean;
  useVTTSubtitles: boolean;
}

export type VodErrorCode = 'vod_not_found' | 'vod_timeout' | 'vod_malformed' | 'vod_unavailable';

export class VodLoadError extends Error {
  override name = 'VodLoadError';
  constructor(
    message: string,
    readonly code: VodErrorCode,
    readonly uri: string,
  ) {
    super(message);
  }
}

/** Advertised for a VOD given as a bare media playlist, which says nothing about its bitrate. */
export const UNKNOWN_BANDWIDTH = 1_000_000;

function toVodError(err: unknown, uri: string): VodLoadError {
  if (err instanceof VodLoadError) return err;
  if (err instanceof PlaylistError) return new VodLoadError(`${uri}: ${err.message}`, 'vod_malformed', uri);
  if (err instanceof TimeoutError) return new VodLoadError(err.message, 'vod_timeout', uri);
  if (err instanceof FetchError) {
    const code =
      err.code === 'not_found' ? 'vod_not_found' : err.code === 'timeout' ? 'vod_timeout' : 'vod_unavailable';
    return new VodLoadError(err.message, code, uri);
  }
  return new VodLoadError(`${uri}: ${(err as Error)?.message ?? String(err)}`, 'vod_unavailable', uri);
}

/**
 * Enough of a TS segment for each stream's first PES header: muxers write the first keyframe whole
 * before the first audio (125 KB into the 480p fixture's first segment). A lead not found within it is 0.
 */
const LEAD_PROBE_BYTES = 1024 * 1024;
/** The last segment is read whole (its audio's end is at its end): a bound, not a size expected. */
const MAX_LAST_SEGMENT_BYTES = 32 * 1024 * 1024;

/** A 4xx is the origin's lasting answer, the same to every engine: no padding then, as for a VOD not TS. */
const isLastingRefusal = (err: unknown): boolean =>
  err instanceof FetchError && err.status !== undefined && err.status >= 400 && err.status < 500;

/**
 * Reads a TS VOD's audio padding from its first and last segments (audio-lead.ts). A failure that
 * may pass (a timeout, a 5xx) fails the load, as a missing playlist does, and is retried as one: an
 * engine that guessed 0 would list the VOD with other durations than its peers.
 */
async function withMeasuredPadding(vod: ParsedVod, opts: VodLoadOptions): Promise<ParsedVod> {
  const probe = paddingProbe(vod);
  if (!probe) return vod;
  const read = (uri: string, maxBytes: number) =>
    fetchOkPrefix(uri, { timeoutMs: opts.timeoutMs, maxBytes, fetch: opts.fetch });
  try {
    const [first, last] = await Promise.all([
      read(probe.first.uri, LEAD_PROBE_BYTES),
      probe.last === probe.first ? undefined : read(probe.last.uri, MAX_LAST_SEGMENT_BYTES),
    ]);
    const audioEnd = tsAudioEnd(last ?? first);
    return withAudioPadding(vod, audioPadding(tsStartTimes(first), audioEnd, probe.listedMs));
  } catch (err) {
    if (isLastingRefusal(err)) return vod;
    throw err;
  }
}

async function load(uri: string, opts: VodLoadOptions): Promise<ParsedVod> {
  return withMeasuredPadding(await loadPlaylists(uri, opts), opts);
}

async function loadPlaylists(uri: string, opts: VodLoadOptions): Promise<ParsedVod> {
  const get = (url: string) =>
    fetchOkText(url, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxPlaylistBytes, fetch: opts.fetch });
  const media = async (url: string): Promise<MediaPlaylist> => parseMediaPlaylist(await get(url), url);
  const text = await get(uri);
  if (!isMasterPlaylist(text)) {
    const playlist = parseMediaPlaylist(text, uri);
    return buildParsedVod(uri, [{ variant: { uri, bandwidth: UNKNOWN_BANDWIDTH }, playlist }], []);
  }
  const master = parseMasterPlaylist(text, uri);
  const wanted = master.media.filter(
    (m): m is MasterMedia & { uri: string } =>
      m.uri !== undefined &&
      ((m.type === 'AUDIO' && opts.useDemuxedAudio) || (m.type === 'SUBTITLES' && opts.useVTTSubtitles)),
  );
  const [variants, renditions] = await Promise.all([
    Promise.all(master.variants.map(async (variant) => ({ variant, playlist: await media(variant.uri) }))),
    Promise.all(wanted.map(async (m) => ({ media: m, playlist: await media(m.uri) }))),
  ]);
  const captions = master.media.filter((m) => m.type === 'CLOSED-CAPTIONS' && m.instreamId);
  return buildParsedVod(uri, variants, renditions, captions);
}

export async function loadVod(uri: string, opts: VodLoadOptions): Promise<ParsedVod> {
  try {
    new URL(uri);
  } catch {
    throw new VodLoadError(`"${uri}" is not an absolute URL`, 'vod_malformed', uri);
  }
  try {
    // One deadline for the whole VOD, not per playlist: a 10-variant VOD must not take 10x as long.
    return await withTimeout(load(uri, opts), opts.timeoutMs, `loading VOD ${uri}`);
  } catch (err) {
    throw toVodError(err, uri);
  }
}
