/**
 * One look at a live HLS source: its master playlist (or a bare media playlist), every variant's
 * media playlist and every audio and subtitle rendition's (EXT-X-MEDIA with a URI), with their media
 * sequence numbers. Fetched through the engine's fetch (the guarded
 * fetch in the product), bounded in time and size. Any failure is a LiveSourceError: the channel
 * switches back to VOD2Live (docs/live-mixing.md).
 */
import { FetchError, type FetchLike, fetchOkText } from '../../../core/fetch/bounded-fetch';
import { TimeoutError, withTimeout } from '../../../core/timeout';
import {
  isMasterPlaylist,
  type MasterMedia,
  type MasterVariant,
  parseMasterPlaylist,
} from '../hls/parse-master';
import { parseMediaPlaylist, type SourceSegment } from '../hls/parse-media';
import { UNKNOWN_BANDWIDTH } from '../vod/load-vod';

/** One media playlist of the source as last read. */
export interface LivePlaylist {
  /** EXT-X-MEDIA-SEQUENCE: the number of segments[0]. */
  mediaSequence: number;
  segments: SourceSegment[];
  /** The source ended the stream (EXT-X-ENDLIST). */
  ended: boolean;
}

export interface LiveVariant extends LivePlaylist {
  variant: MasterVariant;
}

/** A TYPE=AUDIO or TYPE=SUBTITLES rendition with its own playlist. */
export interface LiveRendition extends LivePlaylist {
  media: MasterMedia & { type: 'AUDIO' | 'SUBTITLES'; uri: string };
}

export interface LiveSnapshot {
  uri: string;
  targetDurationS: number;
  variants: LiveVariant[];
  renditions: LiveRendition[];
}

const isRendition = (m: MasterMedia): m is LiveRendition['media'] =>
  (m.type === 'AUDIO' || m.type === 'SUBTITLES') && m.uri !== undefined;

export class LiveSourceError extends Error {
  override name = 'LiveSourceError';
  constructor(
    message: string,
    readonly code: 'live_not_found' | 'live_timeout' | 'live_unavailable' | 'live_malformed',
    /**
     * May the next read pass? A timeout, a reset connection, a 5xx or 429 (a packager or CDN having a
     * bad second), a playlist caught half-written. Not a 404, a 4xx, a URL refused by the guard, a body
     * too large or a redirect loop: asking again would meet the same answer.
     */
    readonly passing = false,
  ) {
    super(message);
  }
}

const passingStatus = (status: number | undefined) =>
  status !== undefined && (status >= 500 || status === 429);

export interface LiveFetchOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxPlaylistBytes: number;
}

const numberTag = (text: string, tag: string): number | undefined => {
  const m = text.match(new RegExp(`^#${tag}:(\\d+(?:\\.\\d+)?)`, 'm'));
  return m ? Number(m[1]) : undefined;
};

/** Any failure to read a live source, as a LiveSourceError (one that is already is kept). */
export function toLiveError(err: unknown, uri: string): LiveSourceError {
  if (err instanceof LiveSourceError) return err;
  if (err instanceof TimeoutError) return new LiveSourceError(`${uri}: timed out`, 'live_timeout', true);
  if (err instanceof FetchError) {
    if (err.code === 'not_found') return new LiveSourceError(`${uri}: not found`, 'live_not_found');
    if (err.code === 'timeout') return new LiveSourceError(`${uri}: timed out`, 'live_timeout', true);
    const passing = err.code === 'network' || (err.code === 'http_error' && passingStatus(err.status));
    return new LiveSourceError(`${uri}: ${err.message}`, 'live_unavailable', passing);
  }
  return new LiveSourceError(`${uri}: ${(err as Error)?.message ?? String(err)}`, 'live_malformed', true);
}

/**
 * The playlist without a last line that lacks its line feed when that line is a URI: every line of a
 * playlist ends with one (RFC 8216 4.1), so it is a playlist cut mid-write (an origin that measured the
 * file before its packager replaced it), and the URI may be cut too. Its segment comes at the next read.
 */
export function completeLines(text: string): string {
  const end = text.lastIndexOf('\n') + 1;
  const last = text.slice(end).trim();
  return last === '' || last.startsWith('#') ? text : text.slice(0, end);
}

async function look(uri: string, opts: LiveFetchOptions): Promise<LiveSnapshot> {
  const get = (url: string) =>
    fetchOkText(url, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxPlaylistBytes, fetch: opts.fetch });
  const media = (text: string, url: string): LivePlaylist => ({
    mediaSequence: numberTag(text, 'EXT-X-MEDIA-SEQUENCE') ?? 0,
    segments: parseMediaPlaylist(completeLines(text), url).segments,
    ended: /^#EXT-X-ENDLIST/m.test(text),
  });
  const text = await get(uri);
  let variants: LiveVariant[];
  let renditions: LiveRendition[] = [];
  let targets: number[];
  if (!isMasterPlaylist(text)) {
    variants = [{ ...media(text, uri), variant: { uri, bandwidth: UNKNOWN_BANDWIDTH } }];
    targets = [numberTag(text, 'EXT-X-TARGETDURATION') ?? 0];
  } else {
    const master = parseMasterPlaylist(text, uri);
    const alternates = master.media.filter(isRendition);
    const texts = await Promise.all([...master.variants, ...alternates].map((v) => get(v.uri)));
    variants = master.variants.map((v, i) => ({ ...media(texts[i]!, v.uri), variant: v }));
    const n = master.variants.length;
    renditions = alternates.map((m, i) => ({ ...media(texts[n + i]!, m.uri), media: m }));
    targets = texts.map((t) => numberTag(t, 'EXT-X-TARGETDURATION') ?? 0);
  }
  if ([...variants, ...renditions].some((v) => v.segments.length === 0))
    throw new LiveSourceError(`${uri}: a media playlist has no segments`, 'live_malformed', true);
  return { uri, targetDurationS: Math.max(...targets), variants, renditions };
}

export async function fetchLiveSource(uri: string, opts: LiveFetchOptions): Promise<LiveSnapshot> {
  try {
    return await withTimeout(look(uri, opts), opts.timeoutMs, `live source ${uri}`);
  } catch (err) {
    throw toLiveError(err, uri);
  }
}
