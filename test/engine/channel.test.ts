import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine-container/src/events';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { compareReloads } from '../support/live-rules';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';
import { masterPlaylist, mediaPlaylist } from './helpers/playlists';

function loopChannel(options = {}) {
  const world = fakeWorld();
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  const made = makeCore(am, { fetch: world.origin.fetch, ...options });
  return {
    world,
    am,
    ...made,
    ...made.core.upsertChannel({ id: 'ch', name: 'ch', options: { category: 'news' } }),
  };
}

async function runUntil(
  playout: { advance(): Promise<void>; nextWakeMs(): number },
  clock: { now: number },
  untilMs: number,
) {
  for (; clock.now < untilMs; clock.now += 1000)
    if (playout.nextWakeMs() <= clock.now) await playout.advance();
}

describe('a channel', () => {
  it('asks the asset manager with its id as sessionId and playlistId, and its category', async () => {
    const { playout, am } = loopChannel();
    await playout.advance();
    expect(am.requests[0]).toMatchObject({ sessionId: 'ch', playlistId: 'ch', category: 'news' });
    expect(typeof (am.requests[0] as { startMs?: unknown }).startMs).toBe('number');
  });

  it('keeps its log ahead of the clock by the lookahead margin', async () => {
    const { playout, clock } = loopChannel();
    await playout.advance();
    await runUntil(playout, clock, clock.now + 600_000);
    const last = playout.tail.last!;
    // 2 target durations + getNextVod and VOD load timeouts (5 s each).
    expect(last.startMs + last.durationMs - clock.now).toBeGreaterThanOrEqual(2 * 2000 + 10_000);
  });

  it('announces each item when it starts', async () => {
    const { playout, clock, core } = loopChannel();
    const started: EngineEvent[] = [];
    core.events.subscribe((e) => e.type === 'item_started' && started.push(e));
    await playout.advance();
    const t0 = clock.now;
    await runUntil(playout, clock, t0 + 100_000);
    expect(started.length).toBeGreaterThanOrEqual(5);
    started.slice(1).forEach((e, i) => {
      expect(e.data.seq).toBe((started[i]!.data.seq as number) + 1);
      // Announced by the tick that the item's start wakes (the test's clock moves in 1 s steps).
      const lateMs = Date.parse(e.time) - (e.data.startMs as number);
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThan(1000);
    });
    expect(Date.parse(started[0]!.time)).toBe(t0);
  });

  it('plays a scheduled VOD event at its start time, for its duration, then returns to VOD2Live', async () => {
    const { playout, clock, world } = loopChannel();
    await playout.advance();
    const startMs = clock.now + 100_000;
    const event: ScheduleEvent = {
      eventId: 'e1',
      assetId: 'ad',
      title: 'Event',
      type: 2,
      start_time: startMs,
      end_time: startMs + 60_000,
      uri: world.preroll,
      duration: 6000,
    };
    playout.setSchedule([event]);
    await runUntil(playout, clock, startMs + 60_000);
    const items = playout.tail.items.filter((i) => i.startMs >= startMs - 30_000);
    const played = items.find((i) => i.eventId === 'e1')!;
    expect(played.startMs).toBeGreaterThanOrEqual(startMs);
    expect(played.startMs - startMs).toBeLessThan(2000);
    expect(played.durationMs).toBe(6000);
    expect(items[items.indexOf(played) + 1]!.uri).toBe(world.a);
  });

  it('cuts a VOD event announced late into what plays, at the next segment boundary', async () => {
    const { playout, clock, world, playlists } = loopChannel();
    await playout.advance();
    await runUntil(playout, clock, clock.now + 31_000);
    const before = parseMediaPlaylist(await playlists.mediaPlaylist('v0'));
    playout.setSchedule([
      {
        eventId: 'late',
        assetId: 'ad',
        title: 'Late',
        type: 2,
        start_time: clock.now - 1000,
        end_time: clock.now + 30_000,
        uri: world.preroll,
        duration: 6000,
      },
    ]);
    await playout.advance();
    const cut = playout.tail.items.find((i) => i.eventId === 'late')!;
    expect(cut.startMs).toBeGreaterThanOrEqual(clock.now);
    expect(cut.offsetMs).toBeGreaterThan(0);
    clock.now += 10_000;
    const after = parseMediaPlaylist(await playlists.mediaPlaylist('v0'));
    expect(compareReloads(before, after)).toEqual([]);
    expect(after.segments.some((s) => s.uri.startsWith('https://origin.test/ad/'))).toBe(true);
  });

  it.each([5_000, 15_000, 25_000, -5_000])(
    'on its slate, cuts in a VOD event announced %i ms before its start at the first boundary it can reach, woken by the change itself',
    async (noticeMs) => {
      const world = fakeWorld();
      const gap = { id: 'gap', title: 'gap', type: 'gap' as const, desiredDuration: 60_000 };
      const made = makeCore(new ScriptedAssetManager(() => gap), {
        fetch: world.origin.fetch,
        defaultSlateUri: world.slate,
      });
      const { playout } = made.core.upsertChannel({ id: 'ch', name: 'ch' });
      const { clock } = made;
      // Just after an advance: on its own, the channel would next look at its log 29 s later.
      await runUntil(playout, clock, clock.now + 91_000);
      const announcedAt = clock.now;
      const start = announcedAt + noticeMs;
      const event = { eventId: 'film', assetId: 'a', title: 'Film', type: 2, uri: world.a, duration: 20_000 };
      playout.setSchedule([{ ...event, start_time: start, end_time: start + 30_000 }]);
      await runUntil(playout, clock, start + 40_000);
      const played = playout.tail.items.filter((i) => i.eventId === 'film');
      // The cut is at least 1 s (cutMarginMs) ahead of the clock, on one of the slate's 2 s segments.
      const reachable = Math.max(start, announcedAt + 1000);
      expect(played).toHaveLength(1);
      expect(played[0]!.startMs).toBeGreaterThanOrEqual(reachable);
      expect(played[0]!.startMs - reachable).toBeLessThan(2000);
      const endMs = played[0]!.startMs + played[0]!.durationMs;
      expect(Math.abs(endMs - (start + 20_000))).toBeLessThan(2000);
    },
  );

  it('restarts from the next segment boundary on reset, never taking back a segment', async () => {
    const { playout, clock, playlists, am, core } = loopChannel();
    const resets: EngineEvent[] = [];
    core.events.subscribe((e) => e.type === 'channel_reset' && resets.push(e));
    await playout.advance();
    await runUntil(playout, clock, clock.now + 45_000);
    const before = parseMediaPlaylist(await playlists.mediaPlaylist('v0'));
    const asked = am.requests.length;
    await playout.reset();
    expect(am.requests.length).toBeGreaterThan(asked);
    const startMs = resets[0]!.data.startMs as number;
    expect(startMs).toBeGreaterThanOrEqual(clock.now);
    expect(startMs - clock.now).toBeLessThanOrEqual(1000 + 2000);
    clock.now += 20_000;
    const after = parseMediaPlaylist(await playlists.mediaPlaylist('v0'));
    expect(compareReloads(before, after)).toEqual([]);
    const first = after.segments.find((s) => s.programDateTimeMs === startMs)!;
    expect(first.discontinuity).toBe(true);
    expect(first.uri).toBe('https://origin.test/a/v0/s0.ts');
  });

  it('serves identical playlists from two instances sharing one playout log', async () => {
    const world = fakeWorld();
    const store = new InMemoryPlayoutLogStore();
    const answer = () => vodResponse(world.a);
    const one = makeCore(new ScriptedAssetManager(answer), { fetch: world.origin.fetch, logStore: store });
    const clock = one.clock;
    const two = makeCore(new ScriptedAssetManager(answer), {
      fetch: world.origin.fetch,
      logStore: store,
      sharedClock: clock,
    });
    const a = one.core.upsertChannel({ id: 'ch', name: 'ch' });
    const b = two.core.upsertChannel({ id: 'ch', name: 'ch' });
    for (const end = clock.now + 120_000; clock.now < end; clock.now += 1000) {
      await Promise.all([a.playout.advance(), b.playout.advance()]);
      expect(await b.playlists.mediaPlaylist('v1')).toBe(await a.playlists.mediaPlaylist('v1'));
    }
    expect((await store.read('ch')).map((i) => i.seq)).toEqual(b.playout.tail.items.map((i) => i.seq));
  });
});

describe('a channel with demuxed audio and subtitles', () => {
  async function demuxedChannel() {
    const world = fakeWorld();
    const dir = 'https://origin.test/demuxed';
    world.origin.add({
      [`${dir}/master.m3u8`]: masterPlaylist(
        [
          {
            uri: 'video.m3u8',
            bandwidth: 500_000,
            width: 640,
            height: 360,
            codecs: 'avc1.64001e',
            audio: 'aac',
            subtitles: 'subs',
          },
        ],
        [
          '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,URI="en.m3u8"',
          '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="sv",NAME="Svenska",URI="sv.m3u8"',
          '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",URI="subs-en.m3u8"',
        ],
      ),
      [`${dir}/video.m3u8`]: mediaPlaylist(Array(6).fill(2000), { prefix: 'video' }),
      [`${dir}/en.m3u8`]: mediaPlaylist([3000, 3000, 3000, 3000], { prefix: 'en', ext: 'aac' }),
      [`${dir}/sv.m3u8`]: mediaPlaylist([3000, 3000, 3000, 3000], { prefix: 'sv', ext: 'aac' }),
      [`${dir}/subs-en.m3u8`]: mediaPlaylist(Array(6).fill(2000), { prefix: 'sub', ext: 'vtt' }),
    });
    const am = new ScriptedAssetManager(() => vodResponse(`${dir}/master.m3u8`));
    const { core, clock } = makeCore(am, {
      fetch: world.origin.fetch,
      useDemuxedAudio: true,
      useVTTSubtitles: true,
    });
    const channel = core.upsertChannel({
      id: 'multi',
      name: 'Multi',
      audioTracks: [
        { language: 'sv', name: 'Svenska' },
        { language: 'de', name: 'Deutsch' },
      ],
      subtitleTracks: [
        { language: 'en', name: 'English' },
        { language: 'fi', name: 'Suomi' },
      ],
    });
    await channel.playout.advance();
    return { ...channel, clock };
  }

  it('lists the channel audio and subtitle languages in the master', async () => {
    const { playlists } = await demuxedChannel();
    const master = await playlists.master();
    expect(master).toContain('URI="audio/aac/sv.m3u8"');
    expect(master).toContain('URI="audio/aac/de.m3u8"');
    expect(master).toContain('URI="subs/fi.m3u8"');
  });

  it('plays the VOD default audio for a language the VOD lacks', async () => {
    const { playlists } = await demuxedChannel();
    expect(await playlists.mediaPlaylist('a:aac:sv')).toContain('https://origin.test/demuxed/sv0.aac');
    expect(await playlists.mediaPlaylist('a:aac:de')).toContain('https://origin.test/demuxed/en0.aac');
  });

  it('points missing subtitles at the dummy WebVTT endpoint and keeps the ones the VOD has', async () => {
    const { playlists } = await demuxedChannel();
    expect(await playlists.mediaPlaylist('s:fi')).toContain('/vtt/dummyUrl?startMs=0&durationMs=2000');
    expect(await playlists.mediaPlaylist('s:en')).toContain('https://origin.test/demuxed/sub0.vtt');
  });

  it('dates audio, video and subtitles from the same clock at every item start', async () => {
    const { playlists, playout, clock } = await demuxedChannel();
    await runUntil(playout, clock, clock.now + 300_000);
    const starts = async (key: string) =>
      parseMediaPlaylist(await playlists.mediaPlaylist(key))
        .segments.filter((s) => s.discontinuity)
        .map((s) => s.programDateTimeMs);
    const video = await starts('v0');
    expect(video.length).toBeGreaterThan(0);
    expect(await starts('a:aac:sv')).toEqual(expect.arrayContaining(video.slice(1)));
    expect(await starts('s:fi')).toEqual(video);
  });
});
