/**
 * A LIVE entry is refused when it is made, rather than slated on air, when its source's segments are
 * longer than its channel's target duration (engine-container/README.md "Target duration"): the
 * source's playlists are read through the guarded, bounded fetch, and their longest segment (EXTINF,
 * rounded as RFC 8216 rounds it) must fit. A source
 * that cannot be read yet (an event that has not started, a slow origin) is accepted: the engine still
 * checks it on air.
 */
import { badRequest } from '../../core/errors';
import { FetchError, type FetchTextOptions, fetchText } from '../../core/fetch/bounded-fetch';
import { MIXED_CONTENT_TARGET_DURATION_S } from '../../core/target-duration';
import { assertPlaylist, secondsToMicros } from './planning/hls-playlist';

/** The source's longest segment in whole seconds, or undefined when it cannot be read. */
export type LiveSegmentReader = (url: string) => Promise<number | undefined>;

/** Playlists read per source at most: a master's variants and renditions beyond this are not read. */
const MAX_PLAYLISTS = 8;

async function playlist(url: string, options: FetchTextOptions): Promise<{ text: string; url: string }> {
  const res = await fetchText(url, options);
  if (res.status !== 200) throw new FetchError(`${url}: HTTP ${res.status}`, 'http_error', res.status);
  assertPlaylist(res.text);
  return res;
}

/** The media playlists a master lists (variants, then renditions with a URI), absolute. */
export function mediaPlaylistUris(master: string, masterUrl: string): string[] {
  const lines = master.split(/\r?\n/).map((l) => l.trim());
  const uris: string[] = [];
  lines.forEach((line, i) => {
    if (line.startsWith('#EXT-X-STREAM-INF')) {
      const uri = lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'));
      if (uri) uris.push(uri);
    } else if (line.startsWith('#EXT-X-MEDIA:')) {
      const uri = /URI="([^"]*)"/.exec(line)?.[1];
      if (uri) uris.push(uri);
    }
  });
  return [...new Set(uris.map((u) => new URL(u, masterUrl).toString()))];
}

/**
 * The longest EXTINF of a media playlist, rounded, in seconds: what the engine holds a source to. Not
 * its EXT-X-TARGETDURATION: ffmpeg rounds that up (3 for 2.002 s segments), and they fit a 2 s channel.
 */
export function longestSegmentS(media: string): number {
  let longest = 0;
  for (const line of media.split(/\r?\n/).map((l) => l.trim())) {
    if (line.startsWith('#EXTINF:')) {
      const micros = secondsToMicros(line.slice(8).split(',')[0] ?? '');
      longest = Math.max(longest, Math.round(micros / 1_000_000));
    }
  }
  return longest;
}

export function liveSegmentReader(options: FetchTextOptions): LiveSegmentReader {
  return async (url) => {
    try {
      const top = await playlist(url, options);
      const uris = mediaPlaylistUris(top.text, top.url).slice(0, MAX_PLAYLISTS);
      const medias = uris.length ? await Promise.all(uris.map((u) => playlist(u, options))) : [top];
      return Math.max(...medias.map((m) => longestSegmentS(m.text)));
    } catch {
      return undefined;
    }
  };
}

/** Throws a 400 naming `url` when the LIVE source is known to have segments too long for the channel. */
export async function checkLiveSource(
  url: string,
  channel: { targetDuration?: number },
  read: LiveSegmentReader,
): Promise<void> {
  const targetS = channel.targetDuration ?? MIXED_CONTENT_TARGET_DURATION_S;
  const longestS = await read(url);
  if (longestS !== undefined && longestS > targetS)
    throw badRequest(
      `the live source has ${longestS} s segments, longer than the channel's ${targetS} s target duration (set the channel's targetDuration, or make the source's segments shorter)`,
      'url',
    );
}
