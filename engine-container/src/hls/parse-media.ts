/**
 * Media playlist parser for VOD sources. Durations become integer milliseconds here, once, so every
 * later sum is exact (no float drift over 24 h). Tags that change how a segment is fetched or decoded
 * (EXT-X-KEY, EXT-X-MAP, EXT-X-BYTERANGE, EXT-X-DISCONTINUITY) are carried per segment; their URIs are
 * made absolute because our playlists are served from another origin.
 */
import { attr, parseAttributes, resolveUri, serialiseAttributes, withAbsoluteUri } from './attributes';
import { mergeCues, readCueTag, type SegmentCue } from './parse-cues';
import { PlaylistError } from './parse-master';

export interface ByteRange {
  length: number;
  offset: number;
}

export interface SourceSegment {
  uri: string;
  durationMs: number;
  byterange?: ByteRange;
  /** The EXT-X-KEY line(s) in force (one per KEYFORMAT, joined by newlines); undefined = clear. */
  keys?: string;
  /** The EXT-X-MAP line in force (fMP4 initialisation section). */
  map?: string;
  /** The source put an EXT-X-DISCONTINUITY before this segment. */
  discontinuity: boolean;
  /** Synthetic gap segment: rendered with EXT-X-GAP (never fetched). */
  gap?: boolean;
  /** An ad cue before this segment (parse-cues.ts); rendered for live items only. */
  cue?: SegmentCue;
}

export interface MediaPlaylist {
  targetDurationS?: number;
  segments: SourceSegment[];
}

function parseByteRange(
  value: string,
  previous: { uri: string; end: number } | undefined,
  uri: string,
): ByteRange {
  const m = value.match(/^(\d+)(?:@(\d+))?$/);
  if (!m) throw new PlaylistError(`malformed EXT-X-BYTERANGE "${value}"`);
  const length = Number(m[1]);
  if (m[2] !== undefined) return { length, offset: Number(m[2]) };
  // RFC 8216 §4.3.2.2: without an offset the range follows the previous segment's range in the same resource.
  if (!previous || previous.uri !== uri)
    throw new PlaylistError('EXT-X-BYTERANGE without offset has no predecessor');
  return { length, offset: previous.end };
}

export function parseMediaPlaylist(text: string, baseUrl: string): MediaPlaylist {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== '#EXTM3U') throw new PlaylistError('playlist does not start with #EXTM3U');
  const segments: SourceSegment[] = [];
  const keysByFormat = new Map<string, string>();
  let keys: string | undefined;
  let map: string | undefined;
  let targetDurationS: number | undefined;
  let durationMs: number | undefined;
  let rangeText: string | undefined;
  let discontinuity = false;
  let previousRange: { uri: string; end: number } | undefined;
  let cue: SegmentCue | undefined;

  for (const line of lines) {
    if (line === '') continue;
    if (line.startsWith('#EXTINF:')) {
      const seconds = Number.parseFloat(line.slice(8));
      if (!Number.isFinite(seconds) || seconds <= 0) throw new PlaylistError(`malformed EXTINF "${line}"`);
      durationMs = Math.round(seconds * 1000);
    } else if (line.startsWith('#EXT-X-TARGETDURATION:')) {
      targetDurationS = Number(line.slice(22));
    } else if (line.startsWith('#EXT-X-BYTERANGE:')) {
      rangeText = line.slice(17);
    } else if (line === '#EXT-X-DISCONTINUITY') {
      discontinuity = true;
    } else if (line.startsWith('#EXT-X-KEY:')) {
      const list = parseAttributes(line.slice(11));
      if (attr(list, 'METHOD') === 'NONE') keysByFormat.clear();
      else
        keysByFormat.set(
          attr(list, 'KEYFORMAT') ?? 'identity',
          `#EXT-X-KEY:${serialiseAttributes(withAbsoluteUri(list, baseUrl))}`,
        );
      keys = keysByFormat.size ? [...keysByFormat.values()].join('\n') : undefined;
    } else if (line.startsWith('#EXT-X-MAP:')) {
      map = `#EXT-X-MAP:${serialiseAttributes(withAbsoluteUri(parseAttributes(line.slice(11)), baseUrl))}`;
    } else if (line.startsWith('#EXT-X-CUE') || line.startsWith('#EXT-X-DATERANGE:')) {
      const read = readCueTag(line);
      if (read) cue = mergeCues(cue, read);
    } else if (!line.startsWith('#')) {
      if (durationMs === undefined) throw new PlaylistError(`segment "${line}" has no EXTINF`);
      const uri = resolveUri(line, baseUrl);
      const byterange = rangeText === undefined ? undefined : parseByteRange(rangeText, previousRange, uri);
      previousRange = byterange ? { uri, end: byterange.offset + byterange.length } : undefined;
      segments.push({ uri, durationMs, byterange, keys, map, discontinuity, ...(cue ? { cue } : {}) });
      cue = undefined;
      durationMs = undefined;
      rangeText = undefined;
      discontinuity = false;
    }
  }
  if (segments.length === 0) throw new PlaylistError('media playlist has no segments');
  return { targetDurationS, segments };
}
