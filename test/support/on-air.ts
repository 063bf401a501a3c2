/**
 * Waiting for a channel to go on air: the engine reads its channels on an interval, so a channel just
 * made through an API answers 404 for a while, then its playlist.
 */
import { waitFor } from '../../core/wait-for';
import { parseMasterPlaylist } from './hls-playlist';

/**
 * The body of `url` once it answers 200 (fails after `timeoutMs` with the last status seen). Going on
 * air takes the engine's refresh, store reads and VOD loads: on a loaded machine far more than alone.
 */
export async function waitOnAir(url: string, timeoutMs = 60_000): Promise<string> {
  const res = await waitFor(
    async () => {
      const res = await fetch(url);
      return { status: res.status, body: await res.text() };
    },
    (res) => res.status === 200,
    { timeoutMs, what: `${url} on air`, intervalMs: 250 },
  );
  return res.body;
}

/** The channel's media playlist of variant `index` (its master read first). */
export async function mediaPlaylistOf(master: string, index = 0): Promise<string> {
  const variant = parseMasterPlaylist(await (await fetch(master)).text()).variants[index]!;
  return (await fetch(new URL(variant.uri, master))).text();
}

/**
 * Waits until the last `segments` of the channel's first media playlist are its entries', none the
 * slate's (a URI with `/slate`: the engine's own slate or a channel's), and returns that playlist.
 */
export function waitOffSlate(
  master: string,
  segments: number,
  options: { timeoutMs: number; intervalMs: number; what: string },
): Promise<string> {
  return waitFor(
    () => mediaPlaylistOf(master),
    (body) => {
      const uris = body.split('\n').filter((line) => line.startsWith('http'));
      return uris.length > segments && uris.slice(-segments).every((uri) => !uri.includes('/slate'));
    },
    options,
  );
}
