/**
 * A minimal live HLS origin for the harness's own tests: it loops a list of VOD media playlists as one
 * live media playlist on the wall clock (sliding window, media and discontinuity sequences, dates),
 * and can be told to misbehave. It is not the engine and shares nothing with it; it exists so the
 * client harness can be shown to accept a correct live stream and to catch a broken one.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseMediaPlaylist } from '../support/hls-playlist';

export interface LiveItem {
  segments: { uri: string; duration: number }[];
  /** EXT-X-MAP URI of an fMP4 item. */
  map?: string;
}

export interface LiveTimeline {
  items: readonly LiveItem[];
  targetDuration: number;
  windowSegments: number;
  /** Wall-clock time (ms) at which the timeline stood at `positionSec`. */
  epochMs: number;
  /** Where in the (looped) timeline the channel was at epochMs, seconds. */
  positionSec: number;
  /** Timeline seconds per wall-clock second (1 for a real player). */
  speed: number;
  /** Added to every media sequence number: a negative jump simulates an origin that lost its state. */
  mediaSequenceOffset: number;
  /** Leave out EXT-X-DISCONTINUITY at item boundaries (a classic origin bug). */
  omitDiscontinuities: boolean;
}

interface Placed {
  uri: string;
  duration: number;
  startSec: number;
  index: number;
  itemStart: boolean;
  map?: string;
}

/** The segment with global index `index` in the looped timeline. */
function placeSegment(items: readonly LiveItem[], index: number): Placed {
  const cycle = items.flatMap((item) =>
    item.segments.map((s, i) => ({ ...s, itemStart: i === 0, ...(item.map ? { map: item.map } : {}) })),
  );
  const cycleSec = cycle.reduce((sum, s) => sum + s.duration, 0);
  const lap = Math.floor(index / cycle.length);
  const within = index % cycle.length;
  const startSec = lap * cycleSec + cycle.slice(0, within).reduce((sum, s) => sum + s.duration, 0);
  const s = cycle[within]!;
  return { ...s, startSec, index, itemStart: s.itemStart && index > 0 };
}

/** The live media playlist at wall-clock time nowMs. Pure. */
export function renderLive(t: LiveTimeline, nowMs: number): string {
  const position = t.positionSec + ((nowMs - t.epochMs) / 1000) * t.speed;
  // Segments whose end has passed; the last `windowSegments` of them.
  let last = -1;
  while (true) {
    const next = placeSegment(t.items, last + 1);
    if (next.startSec + next.duration > position) break;
    last += 1;
  }
  const first = Math.max(0, last - t.windowSegments + 1);
  let discontinuitiesBefore = 0;
  for (let i = 1; i < first && !t.omitDiscontinuities; i++)
    if (placeSegment(t.items, i).itemStart) discontinuitiesBefore += 1;
  // Dates run on the timeline's clock, so they agree with EXTINF at any speed.
  const dateOf = (startSec: number) => t.epochMs + (startSec - t.positionSec) * 1000;

  const out = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${t.targetDuration}`,
    `#EXT-X-MEDIA-SEQUENCE:${first + t.mediaSequenceOffset}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuitiesBefore}`,
  ];
  for (let i = first; i <= last; i++) {
    const s = placeSegment(t.items, i);
    if (s.itemStart && !t.omitDiscontinuities) out.push('#EXT-X-DISCONTINUITY');
    if (s.map && (i === first || s.itemStart)) out.push(`#EXT-X-MAP:URI="${s.map}"`);
    out.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(dateOf(s.startSec)).toISOString()}`);
    out.push(`#EXTINF:${s.duration.toFixed(6)},`, s.uri);
  }
  return `${out.join('\n')}\n`;
}

/** A VOD media playlist on disk as a live item whose segment URIs point at `baseUrl`. */
export async function itemFromVod(root: string, playlistPath: string, baseUrl: string): Promise<LiveItem> {
  const playlist = parseMediaPlaylist(await readFile(path.join(root, playlistPath), 'utf8'));
  const dir = path.posix.dirname(playlistPath);
  const map = playlist.segments[0]?.map?.uri;
  return {
    segments: playlist.segments.map((s) => ({ uri: `${baseUrl}/${dir}/${s.uri}`, duration: s.duration })),
    ...(map ? { map: `${baseUrl}/${dir}/${map}` } : {}),
  };
}

export interface LiveSimulator {
  /** URL of the live media playlist. */
  url: string;
  timeline: LiveTimeline;
  /** How many times the playlist was answered: a change meant for a client that has read it waits on this. */
  served(): number;
  close(): Promise<void>;
}

export async function startLiveSimulator(
  timeline: Omit<LiveTimeline, 'epochMs' | 'mediaSequenceOffset' | 'omitDiscontinuities'> &
    Partial<LiveTimeline>,
): Promise<LiveSimulator> {
  const t: LiveTimeline = {
    epochMs: Date.now(),
    mediaSequenceOffset: 0,
    omitDiscontinuities: false,
    ...timeline,
  };
  let served = 0;
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/live.m3u8') {
      res.writeHead(404).end();
      return;
    }
    served++;
    const body = renderLive(t, Date.now());
    res
      .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'no-cache' })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/live.m3u8`,
    timeline: t,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
