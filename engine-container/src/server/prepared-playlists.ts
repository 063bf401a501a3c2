/**
 * Sending a live media playlist: its bytes come encoded from the playlist cache (one per render,
 * channel/playlist-cache.ts), and its headers (CORS, type, cache-control, content-length) are one
 * object node:http takes as it is, shared by every answer of the same length and max-age. Spreading
 * four header objects on every request was all allocation (garbage for the young generation) and no
 * work. Bounded: lengths of playlists and a few max-ages; cleared when it ever holds more.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, PLAYLIST_TYPE } from './respond';

type Headers = Readonly<Record<string, string>>;

const MAX_SHARED = 4096;
/** By max-age, then by length. */
const shared = new Map<number, Map<number, Headers>>();
let held = 0;

export function playlistHeaders(length: number, maxAgeS: number): Headers {
  let byLength = shared.get(maxAgeS);
  const known = byLength?.get(length);
  if (known) return known;
  if (held >= MAX_SHARED) {
    shared.clear();
    held = 0;
    byLength = undefined;
  }
  if (!byLength) {
    byLength = new Map();
    shared.set(maxAgeS, byLength);
  }
  const headers = {
    ...CORS_HEADERS,
    'content-length': String(length),
    'content-type': PLAYLIST_TYPE,
    'cache-control': `public, max-age=${maxAgeS}`,
  };
  byLength.set(length, headers);
  held++;
  return headers;
}

/**
 * Sends the bytes; true when the response still holds them after this returns: a socket that did not
 * take them at once (a slow reader) or a response queued behind another on its connection. Such bytes
 * must stay as they are until sent (render/render-arena.ts).
 */
export function sendPlaylistBytes(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Buffer,
  maxAgeS: number,
): boolean {
  res.writeHead(200, playlistHeaders(bytes.length, maxAgeS));
  if (req.method === 'HEAD') {
    res.end();
    return false;
  }
  res.end(bytes);
  return res.writableLength > 0 || !res.socket;
}
