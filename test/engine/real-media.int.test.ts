/**
 * The engine against real media: ffmpeg-made fixtures served over HTTP, the engine on a real clock,
 * its media playlists held to the RFC 8216 live rules by an outside poller, and ffmpeg playing the
 * channel as a viewer would, across VOD changes (different ladders and segment lengths) and a slate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../engine-container/src/engine';
import { ensureFixtures } from '../support/fixtures';
import { checkLivePlaylistRules, playWithFfmpeg } from '../support/hls-client';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { ScriptedAssetManager } from './helpers/engine-fixtures';

let origin: StaticServer;
let engine: Engine;
let base: string;

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  const url = (path: string) => `${origin.url}/${path}`;
  const playlist = [fixtures.vodA.path, fixtures.vodB.path, 'missing/master.m3u8', fixtures.vodA.path];
  const am = new ScriptedAssetManager((call) => {
    const path = playlist[call % playlist.length]!;
    return { id: path, title: path, uri: url(path) };
  });
  engine = new Engine(am, {
    port: 0,
    host: '127.0.0.1',
    defaultSlateUri: url(fixtures.slate.path),
    forceTargetDuration: 4,
    playlistWindowMs: 30_000,
    channelManager: { getChannels: () => [{ id: 'loop', name: 'Loop' }] },
  });
  await engine.start();
  base = `http://127.0.0.1:${engine.port}/channels/loop`;
}, 180_000);

afterAll(async () => {
  await engine?.stop();
  await origin?.close();
});

describe('a channel of real media', () => {
  it('keeps the RFC 8216 live rules across reloads of every variant', async () => {
    const [low, high] = await Promise.all([
      checkLivePlaylistRules(`${base}/0.m3u8`, { reloads: 8, intervalMs: 1500 }),
      checkLivePlaylistRules(`${base}/1.m3u8`, { reloads: 8, intervalMs: 1500 }),
    ]);
    expect([...low, ...high]).toEqual([]);
  });

  it('plays in ffmpeg as a live stream without errors', async () => {
    const result = await playWithFfmpeg(`${base}/master.m3u8`, { seconds: 8 });
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
