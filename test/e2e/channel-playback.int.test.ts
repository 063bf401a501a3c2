/**
 * A channel made through the channel API plays: the whole local system (as `npm start` runs it), real
 * ffmpeg-made VODs on a local origin, ffmpeg as the viewer, and an outside check of RFC 8216's live
 * playlist rules on every reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { checkLivePlaylistRules, listMediaPlaylists, playWithFfmpeg } from '../support/hls-client';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';

let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
let token: string;

beforeAll(async () => {
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'engine'],
    env: { LOG_LEVEL: 'silent', ENGINE_CHANNEL_REFRESH_MS: '500' },
  });
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Acme', email: 'e2e@acme.test' }),
  });
  ({ token } = (await res.json()) as { token: string });
});

afterAll(async () => {
  await system?.stop();
  await origin?.close();
});

async function createChannel(body: Record<string, unknown>): Promise<{ id: string; playback: string }> {
  const res = await fetch(`${system.urls.channel}/channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt': `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; playback: string };
}

describe('a Loop channel with a preroll, created through the API', () => {
  it('plays in ffmpeg for 30 s across VOD boundaries and prerolls, and keeps the live rules on every reload', async () => {
    const { playback } = await createChannel({
      name: 'e2e-loop',
      type: 'Loop',
      url: `${origin.url}/${fixtures.vodA.path}`,
      opts: { preroll: { url: `${origin.url}/${fixtures.preroll.path}`, duration: '6000' } },
    });
    await waitOnAir(playback);
    const [firstVariant] = await listMediaPlaylists(playback);
    const [played, violations] = await Promise.all([
      playWithFfmpeg(playback, { seconds: 32 }),
      checkLivePlaylistRules(firstVariant!, { reloads: 16, intervalMs: 2000 }),
    ]);
    expect(violations).toEqual([]);
    expect(played.errors).toEqual([]);
    expect(played.ok).toBe(true);
    expect(played.playedSeconds).toBeGreaterThanOrEqual(30);
    // vod-a is 20 s + a 6 s preroll: 32 s of playback crossed at least one of each boundary.
    const media = await (await fetch(firstVariant!)).text();
    expect(media).toContain('#EXT-X-DISCONTINUITY');
    expect(media).toMatch(/#EXT-X-CUE-OUT:DURATION=6(\.0+)?/);
  }, 120_000);
});

describe('failures', () => {
  it('plays the slate when the VOD cannot be loaded', async () => {
    const { playback } = await createChannel({
      name: 'e2e-missing',
      type: 'Loop',
      url: `${origin.url}/nothing/master.m3u8`,
    });
    const master = await waitOnAir(playback);
    const variant = new URL(master.split('\n').find((l) => l.endsWith('.m3u8'))!, playback).toString();
    const media = await (await fetch(variant)).text();
    // The default slate's rung for the channel's first (lowest) rung.
    expect(media).toContain('/slate/180p/slate_');
  });

  it('stops serving a channel within seconds of its deletion', async () => {
    const { id, playback } = await createChannel({
      name: 'e2e-deleted',
      type: 'Loop',
      url: `${origin.url}/${fixtures.vodA.path}`,
    });
    await waitOnAir(playback);
    const del = await fetch(`${system.urls.channel}/channel/${id}`, {
      method: 'DELETE',
      headers: { 'x-jwt': `Bearer ${token}` },
    });
    expect(del.status).toBe(204);
    const status = await waitFor(
      async () => (await fetch(playback)).status,
      (status) => status !== 200,
      { timeoutMs: 10_000, what: 'the deleted channel off air' },
    );
    expect(status).toBe(404);
  });
});
