/**
 * A channel goes on air only once its log covers the present: its first playlist already holds a full
 * window, however slow the store is and whatever a request interrupts. After that, a late log is served
 * as it is (degraded, not restarted).
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { LogTail } from '../../engine-container/src/channel/log-tail';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore, type PlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { impliedDates } from '../support/live-rules';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';
import { ladderOf } from './helpers/log';

const WINDOW_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store as slow as DynamoDB under load; `onAppend` sees each append begin (the one before it is in the tail). */
class SlowStore implements PlayoutLogStore {
  readonly inner = new InMemoryPlayoutLogStore();
  onAppend: () => void = () => undefined;

  constructor(private readonly delayMs: number) {}

  async read(channelId: string, fromSeq?: number): Promise<PlayoutItem[]> {
    await sleep(this.delayMs);
    return this.inner.read(channelId, fromSeq);
  }

  async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    await sleep(this.delayMs);
    return this.inner.readLast(channelId, count);
  }

  async append(channelId: string, item: PlayoutItem, expectedLastSeq: number) {
    this.onAppend();
    await sleep(this.delayMs);
    return this.inner.append(channelId, item, expectedLastSeq);
  }

  trim(channelId: string, keepFromSeq: number): Promise<void> {
    return this.inner.trim(channelId, keepFromSeq);
  }
}

/** Media seconds in the playlist, and how far before nowMs its last segment ends. */
function measure(body: string, nowMs: number) {
  const playlist = parseMediaPlaylist(body);
  const dates = impliedDates(playlist);
  const last = playlist.segments.length - 1;
  const endMs = dates[last]! + playlist.segments[last]!.duration * 1000;
  const seconds = playlist.segments.reduce((sum, s) => sum + s.duration, 0);
  return { seconds, behindMs: nowMs - endMs, targetDuration: playlist.targetDuration };
}

function expectFullLiveWindow(body: string, nowMs: number) {
  const { seconds, behindMs, targetDuration } = measure(body, nowMs);
  expect(seconds).toBeGreaterThanOrEqual(WINDOW_MS / 1000 - targetDuration);
  expect(behindMs).toBeLessThanOrEqual(targetDuration * 1000);
}

describe('a starting channel', () => {
  it('answers no playlist before its log reaches the present, even while its first items are being appended', async () => {
    const world = fakeWorld();
    const store = new SlowStore(50);
    const am = new ScriptedAssetManager(() => vodResponse(world.a));
    const { core, clock } = makeCore(am, { fetch: world.origin.fetch, logStore: store });
    const { playout, playlists } = core.upsertChannel({
      id: 'ch',
      name: 'ch',
      options: { preroll: { uri: world.preroll, durationMs: 6000 } },
    });
    // Players keep asking while the engine's tick appends preroll, VOD, preroll, VOD... one slow put each.
    const media: Promise<string>[] = [];
    const masters: Promise<string>[] = [];
    store.onAppend = () => {
      media.push(playlists.mediaPlaylist('v0'));
      masters.push(playlists.master());
    };
    await playout.advance();
    expect(media.length).toBeGreaterThan(2);
    await Promise.all(masters);
    for (const body of await Promise.all(media)) expectFullLiveWindow(body, clock.now);
  });

  it('catches up over several advances before it answers when one advance cannot reach the present', async () => {
    const world = fakeWorld({ a: 1000, b: 4000 });
    // One-second items: an advance (at most 32 appends) ends half a window short of now.
    const am = new ScriptedAssetManager(() => vodResponse(world.a, { desiredDuration: 1000 }));
    const { core, clock } = makeCore(am, { fetch: world.origin.fetch });
    const { playlists } = core.upsertChannel({ id: 'ch', name: 'ch' });
    expectFullLiveWindow(await playlists.mediaPlaylist('v0'), clock.now);
    await playlists.master();
  });

  it('answers 503 channel_starting while nothing can be planned', async () => {
    const world = fakeWorld();
    const am = new ScriptedAssetManager(() => vodResponse(world.missing));
    const { core } = makeCore(am, { fetch: world.origin.fetch });
    const { playlists } = core.upsertChannel({ id: 'ch', name: 'ch' });
    for (const request of [playlists.master(), playlists.mediaPlaylist('v0')]) {
      const err = await request.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 503, code: 'channel_starting' });
    }
  });

  it('keeps serving what its log holds when the log falls behind the clock after it went on air', async () => {
    const world = fakeWorld();
    let hang = false;
    const am = new ScriptedAssetManager(() => (hang ? new Promise(() => {}) : vodResponse(world.a)));
    const { core, clock } = makeCore(am, { fetch: world.origin.fetch, getNextVodTimeoutMs: 50 });
    const { playout, playlists } = core.upsertChannel({ id: 'ch', name: 'ch' });
    await playlists.master();
    hang = true;
    const last = playout.tail.last!;
    clock.now = last.startMs + last.durationMs + 30_000;
    const { seconds, behindMs } = measure(await playlists.mediaPlaylist('v0'), clock.now);
    expect(seconds).toBeGreaterThanOrEqual(WINDOW_MS / 1000 - 2);
    expect(behindMs).toBe(30_000);
  });
});

describe('a log tail', () => {
  it('holds an item once when a refresh reads it before its own append has returned', async () => {
    const inner = new InMemoryPlayoutLogStore();
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    // The put lands at once, its answer comes late (a slow network): a read in between sees the item.
    const store: PlayoutLogStore = {
      read: (channelId, fromSeq) => inner.read(channelId, fromSeq),
      readLast: (channelId, count) => inner.readLast(channelId, count),
      trim: (channelId, keepFromSeq) => inner.trim(channelId, keepFromSeq),
      append: async (channelId, item, expectedLastSeq) => {
        const result = await inner.append(channelId, item, expectedLastSeq);
        await answered;
        return result;
      },
    };
    const tail = new LogTail(store, 'ch', () => 0, WINDOW_MS);
    const item: PlayoutItem = {
      seq: 0,
      startMs: 0,
      kind: 'vod',
      id: 'a',
      title: 'a',
      uri: 'https://origin.test/a/master.m3u8',
      offsetMs: 0,
      durationMs: 4000,
      loop: 0,
      targetDurationS: 2,
      ladder: ladderOf([300_000]),
      segmentsBefore: { v0: 0 },
      discontinuitiesBefore: { v0: 0 },
    };
    const append = tail.append(item);
    await tail.refresh();
    answer();
    expect(await append).toBe('appended');
    expect(tail.items.map((i) => i.seq)).toEqual([0]);
  });
});
