/**
 * A channel's ladder comes from its content, never from what happens to play first (docs/media.md
 * "The channel's ladder"): a schedule-like channel whose first items are the slate plays its first
 * scheduled VOD's ladder, the slate mapped onto it; with nothing scheduled it waits off air rather
 * than fix the slate's ladder for its life. On a fake clock, with the engine library alone.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import type { EngineOptions } from '../../engine-container/src/config';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type {
  Channel,
  IAssetManager,
  UpcomingContent,
  VodRequest,
  VodResponse,
} from '../../engine-container/src/types';
import { fakeWorld, makeCore, vodResponse } from '../engine/helpers/engine-fixtures';

const T0 = Date.UTC(2025, 0, 1);

interface Entry {
  uri: string;
  startMs: number;
  endMs: number;
}

/** A schedule of VOD entries by the wall clock, the slate (a gap) between them; it looks ahead when asked to. */
class ScheduleLike implements IAssetManager {
  entries: Entry[] = [];
  upcomingAsks = 0;
  nextAsks = 0;

  async getNextVod(req: VodRequest): Promise<VodResponse> {
    this.nextAsks++;
    const t = req.startMs ?? T0;
    const on = this.entries.find((e) => e.startMs <= t && t < e.endMs);
    if (on) return vodResponse(on.uri, { startOffset: t - on.startMs, desiredDuration: on.endMs - t });
    const next = this.entries.find((e) => e.startMs > t);
    const durationMs = Math.min((next?.startMs ?? t + 10_000) - t, 60_000);
    return { id: `gap-${t}`, title: 'gap', type: 'gap', desiredDuration: durationMs };
  }

  async upcomingContent(req: VodRequest): Promise<UpcomingContent> {
    this.upcomingAsks++;
    const next = this.entries.find((e) => e.endMs > (req.startMs ?? T0));
    return next ? { vod: vodResponse(next.uri) } : {};
  }
}

/** The same schedule, from an asset manager that does not look ahead. */
class NoLookAhead implements IAssetManager {
  constructor(private readonly inner: ScheduleLike) {}
  getNextVod(req: VodRequest): Promise<VodResponse> {
    return this.inner.getNextVod(req);
  }
}

function variantsOf(master: string): Array<{ bandwidth: number; uri: string }> {
  const lines = master.split('\n');
  return lines.flatMap((line, i) => {
    const bw = /^#EXT-X-STREAM-INF:.*BANDWIDTH=(\d+)/.exec(line);
    return bw ? [{ bandwidth: Number(bw[1]), uri: lines[i + 1]! }] : [];
  });
}

const segmentUris = (body: string): string[] => body.split('\n').filter((l) => l.startsWith('http'));

function channelOn(
  am: IAssetManager,
  world: ReturnType<typeof fakeWorld>,
  channel: Partial<Channel> = {},
  options: EngineOptions & { sharedClock?: { now: number }; startMs?: number } = {},
) {
  const { core, clock } = makeCore(am, {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    startMs: T0,
    ...options,
  });
  const slates: unknown[] = [];
  core.events.subscribe((e) => {
    if (e.type === 'slate_inserted') slates.push(e.data);
  });
  return { ...core.upsertChannel({ id: 'ch', name: 'ch', ...channel }), core, clock, slates };
}

describe("a channel's ladder", () => {
  it('comes from the first scheduled VOD when the slate plays first, and the slate is mapped onto it', async () => {
    const world = fakeWorld();
    const am = new ScheduleLike();
    am.entries = [{ uri: world.b, startMs: T0 + 120_000, endMs: T0 + 600_000 }];
    const { playout, playlists, clock } = channelOn(am, world);
    await playout.advance();

    expect(playout.tail.items.every((i) => i.kind === 'slate')).toBe(true);
    const master = await playlists.master();
    // world.b's three rungs, not the slate's single 300 kbit/s one.
    expect(variantsOf(master)).toEqual([
      { bandwidth: 200_000, uri: '0.m3u8' },
      { bandwidth: 600_000, uri: '1.m3u8' },
      { bandwidth: 1_500_000, uri: '2.m3u8' },
    ]);
    // Every rendition of that ladder plays the slate meanwhile.
    for (const key of ['v0', 'v1', 'v2']) {
      const uris = segmentUris(await playlists.mediaPlaylist(key));
      expect(uris.length).toBeGreaterThan(0);
      expect(uris.every((u) => u.startsWith(`${world.slate.replace('master.m3u8', '')}`))).toBe(true);
    }

    for (clock.now += 2000; clock.now < T0 + 240_000; clock.now += 2000) await playout.advance();
    // The entry plays each rung on its own rendition, under the master served from the start.
    expect(segmentUris(await playlists.mediaPlaylist('v2')).at(-1)).toMatch(/\/b\/v2\/s\d+\.ts$/);
    expect(segmentUris(await playlists.mediaPlaylist('v0')).at(-1)).toMatch(/\/b\/v0\/s\d+\.ts$/);
    expect(await playlists.master()).toBe(master);
  });

  it('takes its target duration from the scheduled VOD too, so the VOD is not refused when it starts', async () => {
    const world = fakeWorld();
    const am = new ScheduleLike();
    am.entries = [{ uri: world.b, startMs: T0 + 90_000, endMs: T0 + 600_000 }];
    const { playout, playlists, clock } = channelOn(am, world);
    for (; clock.now < T0 + 180_000; clock.now += 2000) await playout.advance();
    // world.b has 4 s segments, the slate 2 s.
    expect(playout.header?.targetDurationS).toBe(4);
    expect(playout.tail.items.some((i) => i.kind === 'vod' && i.uri === world.b)).toBe(true);
    expect(await playlists.mediaPlaylist('v1')).toContain('#EXT-X-TARGETDURATION:4');
  });

  it('waits off air while nothing is scheduled, then comes from the first entry made later', async () => {
    const world = fakeWorld();
    const am = new ScheduleLike();
    const { playout, playlists, clock, slates } = channelOn(am, world);
    await playout.advance();

    expect(playout.tail.items).toEqual([]);
    const starting = await playlists.master().catch((err: unknown) => err);
    expect(starting).toBeInstanceOf(HttpError);
    expect((starting as HttpError).code).toBe('channel_starting');
    // Waiting plays nothing: no slate is planned, and the asset manager is only asked what is coming.
    expect(slates).toEqual([]);
    expect(am.nextAsks).toBe(0);

    clock.now += 30_000;
    am.entries = [{ uri: world.b, startMs: clock.now + 300_000, endMs: clock.now + 900_000 }];
    await playout.advance();
    expect(variantsOf(await playlists.master()).map((v) => v.bandwidth)).toEqual([
      200_000, 600_000, 1_500_000,
    ]);
  });

  it('comes from the profile of a channel that declares one, on air at once with nothing scheduled', async () => {
    const world = fakeWorld();
    const profile = [
      { resolution: [640, 360] as [number, number], bw: 700_000, codecs: 'avc1.64001e,mp4a.40.2' },
      { resolution: [1280, 720] as [number, number], bw: 2_500_000, codecs: 'avc1.64001f,mp4a.40.2' },
    ];
    const { playout, playlists } = channelOn(new ScheduleLike(), world, { profile });
    await playout.advance();
    expect(variantsOf(await playlists.master()).map((v) => v.bandwidth)).toEqual([700_000, 2_500_000]);
    expect(playout.tail.items[0]?.kind).toBe('slate');
  });

  it('comes from a profile given to a waiting channel at once, however long it has waited', async () => {
    const world = fakeWorld();
    // An asset manager that reports changes: a waiting channel looks again less and less often.
    const am = Object.assign(new ScheduleLike(), { contentChangedFrom: async () => undefined });
    const { core, playout, clock } = channelOn(am, world);
    for (const end = clock.now + 130_000; clock.now < end; clock.now += 500)
      if (playout.nextWakeMs() <= clock.now) await playout.advance();
    // Looks at 0, 2, 6, 14, 30, 60, 90 and 120 s: the next is 20 s away.
    expect(playout.nextWakeMs() - clock.now).toBe(20_000);
    const profile = [{ resolution: [640, 360] as [number, number], bw: 700_000, codecs: 'avc1.64001e' }];
    core.upsertChannel({ id: 'ch', name: 'ch', profile });
    expect(playout.nextWakeMs()).toBeLessThanOrEqual(clock.now);
    await playout.advance();
    expect(playout.tail.items[0]?.kind).toBe('slate');
  });

  it('comes from the first item when the asset manager does not look ahead (the slate, if that is what it answers)', async () => {
    const world = fakeWorld();
    const schedule = new ScheduleLike();
    schedule.entries = [{ uri: world.b, startMs: T0 + 120_000, endMs: T0 + 600_000 }];
    const { playout, playlists } = channelOn(new NoLookAhead(schedule), world);
    await playout.advance();
    expect(variantsOf(await playlists.master()).map((v) => v.bandwidth)).toEqual([300_000]);
  });

  it('is the same on engines sharing a log, whichever of them writes the first item', async () => {
    const world = fakeWorld();
    const store = new InMemoryPlayoutLogStore();
    const sharedClock = { now: T0 };
    const engines = [0, 1].map(() => {
      const am = new ScheduleLike();
      am.entries = [{ uri: world.b, startMs: T0 + 120_000, endMs: T0 + 600_000 }];
      // Short leases: the one not holding the lease waits at most a lease's life (by the real clock).
      return channelOn(am, world, {}, { logStore: store, sharedClock, volatileKeyTTL: 0.2 });
    });
    for (; sharedClock.now < T0 + 200_000; sharedClock.now += 10_000)
      await Promise.all(engines.map((e) => e.playout.advance()));
    const masters = await Promise.all(engines.map((e) => e.playlists.master()));
    expect(masters[1]).toBe(masters[0]);
    expect(variantsOf(masters[0]!).map((v) => v.bandwidth)).toEqual([200_000, 600_000, 1_500_000]);
    const media = await Promise.all(engines.map((e) => e.playlists.mediaPlaylist('v2')));
    expect(media[1]).toBe(media[0]);
  }, 60_000);

  it('is decided alike by engines that each decide it alone from the same schedule', async () => {
    const world = fakeWorld();
    const engines = [0, 1].map((k) => {
      const am = new ScheduleLike();
      am.entries = [{ uri: world.b, startMs: T0 + 120_000, endMs: T0 + 600_000 }];
      // Each with its own log, starting a moment apart.
      return channelOn(am, world, {}, { startMs: T0 + k * 1500 });
    });
    for (const e of engines) await e.playout.advance();
    const [a, b] = await Promise.all(engines.map((e) => e.playlists.master()));
    expect(b).toBe(a);
    expect(engines[1]!.playout.header).toEqual(engines[0]!.playout.header);
  });

  it('costs a waiting channel no write and one log read per 30 s', async () => {
    const world = fakeWorld();
    const store = new InMemoryPlayoutLogStore();
    const calls: string[] = [];
    const counting = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return value.apply(target, args);
        };
      },
    });
    const { playout, clock } = channelOn(new ScheduleLike(), world, {}, { logStore: counting });
    for (const end = clock.now + 60_000; clock.now < end; clock.now += 2000) await playout.advance();
    const reads = ['read', 'readLast'];
    expect(calls.filter((c) => reads.includes(c)).length).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => !reads.includes(c))).toEqual([]);
  });
});
