/**
 * Playout speed over simulated time: the engine core (no HTTP, no timers) on an injected clock, driven
 * the way the engine's tick drives it, with a player reloading every channel's first video rendition
 * about every 2 s (1.733 s). Two channels: a Loop of the 12 s demo VOD (integer 2 s segments, what the load runs
 * serve) and one alternating the demo with a 29.97 fps VOD whose segments (2.002002 s, last 1.334667 s)
 * do not fall on whole milliseconds, so rounding would show as drift if it accumulated.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchLike } from '../../core/fetch/bounded-fetch';
import { resolveConfig } from '../../engine-container/src/config';
import { EngineCore } from '../../engine-container/src/engine-core';
import { ClockKeeper, type ClockKeeping } from './clock-keeping';
import { type LivePlaylist, parseLivePlaylist } from './live-playlist';
import { RotatingAssets } from './rotating-assets';

/**
 * As long as the engine process's static origin (127.0.0.1 and an ephemeral port: always 5 digits), so
 * the sample playlist is as long as the ones the engine serves in the load runs.
 */
const ORIGIN = 'http://127.0.0.1:40000';
const DEMO_DIR = fileURLToPath(new URL('../../engine-container/static/demo/', import.meta.url));
/** 60 and 40 frames at 30000/1001 fps, in ms (not whole milliseconds on purpose). */
const NTSC_SEGMENTS_MS = [...Array(7).fill(60_000_000 / 29_970), 40_000_000 / 29_970] as number[];
const SWEEP_EVERY_MS = 60_000;

export interface ChannelDrift {
  channel: string;
  vods: string;
  keeping: ClockKeeping;
  /** Longest served segment, ms: "less than one segment of drift" is measured against it. */
  segmentMs: number;
}

export interface DriftResult {
  simulatedHours: number;
  reloadMs: number;
  channels: ChannelDrift[];
  /** A rendered media playlist of the Loop channel (the ceiling server returns one of its size). */
  samplePlaylist: string;
}

/** The sim's origin: files by URL, and the real (unrounded) duration of every segment. */
function memoryOrigin(): { fetch: FetchLike; sourceMs: Map<string, number> } {
  const files = new Map<string, string>();
  const sourceMs = new Map<string, number>();
  files.set(`${ORIGIN}/demo/master.m3u8`, readFileSync(`${DEMO_DIR}master.m3u8`, 'utf8'));
  const demoMedia = readFileSync(`${DEMO_DIR}media.m3u8`, 'utf8');
  files.set(`${ORIGIN}/demo/media.m3u8`, demoMedia);
  for (const s of parseLivePlaylist(demoMedia).segments)
    sourceMs.set(`${ORIGIN}/demo/${s.uri}`, s.durationMs);
  const ntsc = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-PLAYLIST-TYPE:VOD'];
  NTSC_SEGMENTS_MS.forEach((ms, i) => {
    ntsc.push(`#EXTINF:${(ms / 1000).toFixed(6)},`, `ntsc_${i}.ts`);
    sourceMs.set(`${ORIGIN}/ntsc/ntsc_${i}.ts`, ms);
  });
  ntsc.push('#EXT-X-ENDLIST');
  files.set(`${ORIGIN}/ntsc/media.m3u8`, `${ntsc.join('\n')}\n`);
  files.set(
    `${ORIGIN}/ntsc/master.m3u8`,
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"\nmedia.m3u8\n',
  );
  const fetch: FetchLike = async (url) => {
    const body = files.get(url);
    return body === undefined ? new Response('not found', { status: 404 }) : new Response(body);
  };
  return { fetch, sourceMs };
}

/**
 * Close to a player's reload period, and prime: each reload lands 267 ms earlier in a 2 s segment than
 * the last, so any few minutes of reloads sample every phase of a segment evenly.
 */
const RELOAD_MS = 1_733;

export async function simulateDrift(hours: number, reloadMs = RELOAD_MS): Promise<DriftResult> {
  const { fetch, sourceMs } = memoryOrigin();
  const demo = `${ORIGIN}/demo/master.m3u8`;
  const rotations: Record<string, string[]> = {
    'loop-demo': [demo],
    'demo-and-ntsc': [demo, `${ORIGIN}/ntsc/master.m3u8`],
  };
  const clock = { now: Date.UTC(2025, 0, 1) };
  const core = new EngineCore(
    new RotatingAssets((id) => rotations[id] ?? []),
    resolveConfig({ clock: () => clock.now, fetch }, {}),
  );
  const channels = Object.keys(rotations).map((id) => {
    const runtime = core.upsertChannel({ id, name: id });
    const keeper = new ClockKeeper((uri, servedMs) => sourceMs.get(uri) ?? servedMs);
    return { id, runtime, keeper, body: '', parsed: undefined as LivePlaylist | undefined, segmentMs: 0 };
  });
  await core.advanceAll();
  const endMs = clock.now + hours * 3600_000;
  let nextSweepMs = clock.now + SWEEP_EVERY_MS;
  for (; clock.now <= endMs; clock.now += reloadMs) {
    if (clock.now >= nextSweepMs) {
      core.sweep();
      nextSweepMs += SWEEP_EVERY_MS;
    }
    for (const c of channels) {
      const { playout, playlists } = c.runtime;
      if (playout.nextWakeMs() <= clock.now) await playout.advance();
      const body = await playlists.mediaPlaylist('v0');
      if (body !== c.body || !c.parsed) {
        c.body = body;
        c.parsed = parseLivePlaylist(body);
        for (const s of c.parsed.segments) c.segmentMs = Math.max(c.segmentMs, s.durationMs);
      }
      c.keeper.observe(clock.now, c.parsed);
    }
  }
  return {
    simulatedHours: hours,
    reloadMs,
    channels: channels.map((c) => ({
      channel: c.id,
      vods: rotations[c.id]!.map((u) => u.split('/')[3]).join(' + '),
      keeping: c.keeper.result(),
      segmentMs: c.segmentMs,
    })),
    samplePlaylist: channels[0]!.body,
  };
}
