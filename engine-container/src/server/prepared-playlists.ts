/**
 * A live media playlist's answer, built once per render instead of once per request: its UTF-8 bytes
 * and its headers (CORS, type, cache-control, content-length) in one object that node:http takes as it
 * is. Most requests are answered from the playlist cache with the same body, so encoding it and spreading
 * four header objects on every request was all allocation (garbage for the young generation) and no
 * work. Held per channel and rendition, the last body only: bounded by the channels' renditions, and
 * gone with its channel (a WeakMap on the channel's playlists).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, PLAYLIST_TYPE } from './respond';

export interface PreparedPlaylist {
  /** The body it was built from (compared by identity first: the cache hands out the same string). */
  readonly body: string;
  readonly maxAgeS: number;
  readonly bytes: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

export function preparePlaylist(body: string, maxAgeS: number): PreparedPlaylist {
  // Its own memory, not a slice of node's shared 8 KB pool: a kept slice would keep its whole slab.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body, 'utf8'));
  bytes.write(body, 'utf8');
  const headers = {
    ...CORS_HEADERS,
    'content-length': String(bytes.length),
    'content-type': PLAYLIST_TYPE,
    'cache-control': `public, max-age=${maxAgeS}`,
  };
  return { body, maxAgeS, bytes, headers };
}

export class PreparedPlaylists {
  private readonly byChannel = new WeakMap<object, Map<string, PreparedPlaylist>>();

  /** The answer for `body`: the one built for the channel's rendition last time when it is the same. */
  answer(channel: object, key: string, body: string, maxAgeS: number): PreparedPlaylist {
    let renditions = this.byChannel.get(channel);
    if (!renditions) {
      renditions = new Map();
      this.byChannel.set(channel, renditions);
    }
    const last = renditions.get(key);
    if (last && last.body === body && last.maxAgeS === maxAgeS) return last;
    const prepared = preparePlaylist(body, maxAgeS);
    renditions.set(key, prepared);
    return prepared;
  }
}

export function sendPrepared(req: IncomingMessage, res: ServerResponse, prepared: PreparedPlaylist): void {
  res.writeHead(200, prepared.headers);
  res.end(req.method === 'HEAD' ? undefined : prepared.bytes);
}
