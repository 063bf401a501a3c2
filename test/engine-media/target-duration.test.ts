/**
 * engine-container/README.md "Target duration": a channel's EXT-X-TARGETDURATION follows what it can
 * play (its first VOD, preroll and slate) unless it sets its own (`targetDuration`, validated by the
 * channel API and the schedule API) or the operator forces one; whatever it is, every EXTINF, rounded,
 * stays within it (RFC 8216 4.3.3.1): a VOD or preroll with longer segments is refused for the slate.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { MIXED_CONTENT_TARGET_DURATION_S } from '../../core/target-duration';
import { parseWith } from '../../core/validation';
import { toEngineChannel } from '../../engine-container/host/channel-table-manager';
import { ScheduleChannelManager } from '../../engine-container/host/schedule/schedule-channel-manager';
import type { EngineOptions } from '../../engine-container/src/config';
import type { Channel, VodResponse } from '../../engine-container/src/types';
import { createChannelSchema as channelApiSchema } from '../../functions/channel/channel-schema';
import { createChannelSchema as scheduleSchema } from '../../functions/schedule/api/schemas';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist } from '../support/live-rules';

type World = ReturnType<typeof fakeWorld>;

/** A channel answering `script` on the fake clock, advanced through its first items; its v0 playlist. */
async function playlistOf(
  channel: Omit<Channel, 'id' | 'name'>,
  script: (world: World, call: number) => VodResponse,
  options: EngineOptions = {},
) {
  const world = fakeWorld();
  const am = new ScriptedAssetManager((call) => script(world, call));
  const { core, clock } = makeCore(am, {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    ...options,
  });
  const { playout, playlists } = core.upsertChannel({ id: 'ch', name: 'ch', ...channel });
  for (let i = 0; i < 30; i++, clock.now += 2000) await playout.advance();
  const text = await playlists.mediaPlaylist('v0');
  return { text, playlist: parseMediaPlaylist(text), am };
}

const longestExtinfS = (playlist: ReturnType<typeof parseMediaPlaylist>) =>
  Math.max(...playlist.segments.map((s) => Math.round(s.duration)));

describe("a channel's target duration", () => {
  it('follows its content: a channel of 2 s segments, its preroll and slate of 2 s, has a 2 s target duration', async () => {
    const { playlist } = await playlistOf({}, (w) => vodResponse(w.a, { preroll: { uri: w.preroll } }));
    expect(playlist.targetDuration).toBe(2);
    expect(playlist.segments.some((s) => s.uri.includes('/ad/'))).toBe(true);
    expect(checkPlaylist(playlist)).toEqual([]);
  });

  it('is the longest segment, rounded, of what the channel plays first: 4 s segments make 4 s', async () => {
    const { playlist } = await playlistOf({}, (w) => vodResponse(w.b));
    expect(playlist.targetDuration).toBe(4);
  });

  it("is the channel's own targetDuration when it sets one", async () => {
    const { playlist } = await playlistOf({ targetDuration: 6 }, (w) => vodResponse(w.a));
    expect(playlist.targetDuration).toBe(6);
  });

  it("is forceTargetDuration, over the channel's own, when the operator forces one", async () => {
    const { playlist } = await playlistOf({ targetDuration: 6 }, (w) => vodResponse(w.a), {
      forceTargetDuration: 8,
    });
    expect(playlist.targetDuration).toBe(8);
  });

  it('refuses a later VOD with longer segments than the target: the slate plays, no EXTINF exceeds it', async () => {
    const { playlist, am } = await playlistOf({}, (w, call) => vodResponse(call === 0 ? w.a : w.b));
    expect(playlist.targetDuration).toBe(2);
    expect(longestExtinfS(playlist)).toBeLessThanOrEqual(2);
    expect(playlist.segments.some((s) => s.uri.includes('/slate/'))).toBe(true);
    expect(am.errors[0]?.err.message).toContain('longer than the channel target duration 2 s');
    expect(checkPlaylist(playlist)).toEqual([]);
  });

  it('holds even the first VOD to a target duration the channel sets: 4 s segments under 2 s are refused', async () => {
    const { playlist, am } = await playlistOf({ targetDuration: 2 }, (w) => vodResponse(w.b));
    expect(playlist.targetDuration).toBe(2);
    expect(longestExtinfS(playlist)).toBeLessThanOrEqual(2);
    expect(playlist.segments.some((s) => s.uri.includes('/b/'))).toBe(false);
    expect(am.errors[0]?.err.message).toContain('longer than the channel target duration 2 s');
  });

  it('refuses a preroll with longer segments than the target the channel sets, and plays its VOD', async () => {
    const { playlist } = await playlistOf({ targetDuration: 2 }, (w) =>
      vodResponse(w.a, { preroll: { uri: w.b } }),
    );
    expect(playlist.segments.some((s) => s.uri.includes('/b/'))).toBe(false);
    expect(playlist.segments.some((s) => s.uri.includes('/a/'))).toBe(true);
  });
});

describe('the engine host', () => {
  const stored = (type: 'Loop' | 'WebHook', opts?: object) =>
    toEngineChannel({
      id: 't-news',
      tenant: 't',
      name: 'news',
      type,
      url: 'https://cdn.example.com/a.m3u8',
      ...(opts ? { opts: opts as never } : {}),
      createdAt: 0,
    });
  const scheduleChannels = (extra: object) =>
    new ScheduleChannelManager({
      watch: { refresh: async () => [{ id: 'news', tenant: 't', title: 'News', ...extra }] },
      log: { warn: () => undefined } as never,
    }).getChannels();

  it("leaves a Loop channel's target duration to its content", () => {
    expect(stored('Loop').targetDuration).toBeUndefined();
  });

  it('gives a WebHook channel room for most catalogues unless it sets its own', () => {
    expect(stored('WebHook').targetDuration).toBe(MIXED_CONTENT_TARGET_DURATION_S);
    expect(stored('WebHook', { targetDuration: 2 }).targetDuration).toBe(2);
    expect(stored('Loop', { targetDuration: 3 }).targetDuration).toBe(3);
  });

  it('gives a schedule channel room for most catalogues unless it sets its own', async () => {
    expect((await scheduleChannels({}))[0]!.targetDuration).toBe(MIXED_CONTENT_TARGET_DURATION_S);
    expect((await scheduleChannels({ targetDuration: 2 }))[0]!.targetDuration).toBe(2);
  });
});

describe('the targetDuration setting', () => {
  const loop = (opts: object) => ({
    name: 'news',
    type: 'Loop',
    url: 'https://cdn.example.com/a.m3u8',
    opts,
  });
  const scheduled = (extra: object) => ({ id: 'news', title: 'News', ...extra });
  const refusedField = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (err) {
      if (err instanceof HttpError && err.status === 400) return (err.details as { field?: string })?.field;
      throw err;
    }
    return undefined;
  };

  it('is accepted in whole seconds from 1 to 20 by the channel API and the schedule API', () => {
    for (const targetDuration of [1, 2, 20]) {
      expect(parseWith(channelApiSchema, loop({ targetDuration })).opts).toMatchObject({ targetDuration });
      expect(parseWith(scheduleSchema, scheduled({ targetDuration }))).toMatchObject({ targetDuration });
    }
  });

  it.each([0, 2.5, 21, '2'])('refuses %j with a 400 naming the field', (targetDuration) => {
    expect(refusedField(() => parseWith(channelApiSchema, loop({ targetDuration })))).toBe(
      'opts.targetDuration',
    );
    expect(refusedField(() => parseWith(scheduleSchema, scheduled({ targetDuration })))).toBe(
      'targetDuration',
    );
  });
});
