/**
 * Just enough of a live media playlist for the benchmark's clock checks: media sequence and, per
 * segment, its URI, EXTINF and EXT-X-PROGRAM-DATE-TIME. Not a validator (the tests have one).
 */
export interface LiveSegment {
  uri: string;
  /** EXTINF in milliseconds, as served (3 decimals). */
  durationMs: number;
  /** EXT-X-PROGRAM-DATE-TIME, Unix ms (NaN when absent). */
  pdtMs: number;
}

export interface LivePlaylist {
  mediaSequence: number;
  segments: LiveSegment[];
}

export function parseLivePlaylist(text: string): LivePlaylist {
  let mediaSequence = 0;
  const segments: LiveSegment[] = [];
  let durationMs: number | undefined;
  let pdtMs = Number.NaN;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) mediaSequence = Number(line.slice(22));
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pdtMs = Date.parse(line.slice(25));
    else if (line.startsWith('#EXTINF:')) durationMs = Math.round(Number.parseFloat(line.slice(8)) * 1000);
    else if (line !== '' && !line.startsWith('#') && durationMs !== undefined) {
      segments.push({ uri: line, durationMs, pdtMs });
      durationMs = undefined;
      pdtMs = Number.NaN;
    }
  }
  return { mediaSequence, segments };
}

/** Where the live edge is: the media sequence number of the last segment and when it ends (by its PDT). */
export function liveEdge(playlist: LivePlaylist): { lastIndex: number; endMs: number } | undefined {
  const last = playlist.segments[playlist.segments.length - 1];
  if (!last) return undefined;
  return {
    lastIndex: playlist.mediaSequence + playlist.segments.length - 1,
    endMs: last.pdtMs + last.durationMs,
  };
}
