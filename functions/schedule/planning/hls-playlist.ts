/**
 * Just enough HLS reading for scheduling: is a playlist a master, which is its first variant, and
 * how long is a media playlist. EXTINF values are summed in microseconds as written, so a playlist
 * of 2.002 s segments adds up exactly, never 1.9999999 ms short.
 */

export class PlaylistFormatError extends Error {
  override name = 'PlaylistFormatError';
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

export function assertPlaylist(text: string): void {
  if (!lines(text)[0]?.startsWith('#EXTM3U'))
    throw new PlaylistFormatError('not an HLS playlist (no #EXTM3U)');
}

/** The URI of the first variant of a master playlist (absolute), or undefined for a media playlist. */
export function firstVariantUri(text: string, playlistUrl: string): string | undefined {
  const all = lines(text);
  const at = all.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF'));
  if (at < 0) return undefined;
  const uri = all.slice(at + 1).find((l) => !l.startsWith('#'));
  if (!uri) throw new PlaylistFormatError('master playlist has #EXT-X-STREAM-INF without a URI');
  return new URL(uri, playlistUrl).toString();
}

/** "2.002" -> 2002000; exact for up to 6 decimals (more are rounded half up at the microsecond). */
export function secondsToMicros(value: string): number {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) throw new PlaylistFormatError(`EXTINF duration "${value}" is not a number`);
  const fraction = (match[2] ?? '').padEnd(7, '0');
  const micros = Number(match[1]) * 1_000_000 + Number(fraction.slice(0, 6));
  return Number(fraction[6]) >= 5 ? micros + 1 : micros;
}

/** Sum of the EXTINF durations of a media playlist, in milliseconds (rounded once, at the end). */
export function mediaPlaylistDurationMs(text: string): number {
  let micros = 0;
  let segments = 0;
  for (const line of lines(text)) {
    if (!line.startsWith('#EXTINF:')) continue;
    micros += secondsToMicros(line.slice('#EXTINF:'.length).split(',')[0] ?? '');
    segments++;
  }
  if (segments === 0) throw new PlaylistFormatError('media playlist has no segments');
  return Math.round(micros / 1000);
}
