/**
 * Start-over reads a channel's history only as far back as a request asks (timeshift/channel-history.ts):
 * over a long retention, a start ten minutes ago reads ten minutes of items, not the day; an older start
 * then reads only the older items; later requests read only what was appended since.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { ChannelHistory } from '../../engine-container/src/timeshift/channel-history';
import { timeshiftRange } from '../../engine-container/src/timeshift/timeshift-range';
import { item } from '../engine-ha/log-store-contract';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { HOUR, playedChannel } from './support/played-core';

/** The in-memory store, counting the items its reads return. */
class CountedStore extends InMemoryPlayoutLogStore {
  itemsRead = 0;
  reads = 0;
  /** Reads fail as a store that cannot be reached does. */
  unreachable = false;

  override async read(channelId: string, fromSeq?: number, toSeq?: number): Promise<PlayoutItem[]> {
    if (this.unreachable) throw new Error('connect ECONNREFUSED 10.0.0.7:6379');
    this.reads++;
    const items = await super.read(channelId, fromSeq, toSeq);
    this.itemsRead += items.length;
    return items;
  }
}

async function channelOverHours(hours: number) {
  const clock = { now: Date.UTC(2025, 0, 1) };
  const store = new CountedStore(() => clock.now, 24 * HOUR);
  const ch = await playedChannel(hours, 0, { clock, logStore: store });
  const shifted = async (startMs: number) => {
    const range = timeshiftRange(
      new URLSearchParams({ start: String(startMs / 1000) }),
      clock.now,
      24 * HOUR,
    )!;
    const before = store.itemsRead;
    const playlist = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    return { playlist, itemsRead: store.itemsRead - before };
  };
  return { ...ch, store, shifted, logged: (await store.read('ch')).length };
}

describe('the start-over history read on a channel that played for hours', () => {
  it('reads back only to the item on air at start, however long the retention', async () => {
    const ch = await channelOverHours(3); // 20 s items: 540 of them
    const startMs = ch.clock.now - 10 * 60_000;
    const { playlist, itemsRead } = await ch.shifted(startMs);
    console.info(`start 10 min ago: ${itemsRead} of ${ch.logged} items read`);
    // Ten minutes of 20 s items is 30, the live tail and a page's margin a few more.
    expect(itemsRead).toBeLessThan(60);
    const first = playlist.segments[0]!;
    expect(first.programDateTimeMs!).toBeLessThanOrEqual(startMs);
    expect(first.programDateTimeMs! + first.duration * 1000).toBeGreaterThan(startMs);
  });

  it('reads only the older items for an older start, and only new items later', async () => {
    const ch = await channelOverHours(3);
    const recent = await ch.shifted(ch.clock.now - 10 * 60_000);
    const older = await ch.shifted(ch.clock.now - 2 * HOUR);
    console.info(`10 min ago: ${recent.itemsRead} items read; then 2 h ago: ${older.itemsRead} more`);
    // Two hours is 360 items; the ten minutes already read are not read again.
    expect(recent.itemsRead + older.itemsRead).toBeLessThan(360 + 60);
    expect(older.itemsRead).toBeLessThan(360);
    expect(older.playlist.segments[0]!.programDateTimeMs!).toBeLessThanOrEqual(ch.clock.now - 2 * HOUR);
    // A minute on, the channel has appended three items: a request reads those, not the history again.
    for (const end = ch.clock.now + 60_000; ch.clock.now < end; ch.clock.now += 2000)
      if (ch.runtime.playout.nextWakeMs() <= ch.clock.now) await ch.runtime.playout.advance();
    const later = await ch.shifted(ch.clock.now - 2 * HOUR);
    expect(later.itemsRead).toBeLessThan(10);
    const live = parseMediaPlaylist(await ch.runtime.playlists.mediaPlaylist('v0'));
    expect(later.playlist.segments.at(-1)).toEqual(live.segments.at(-1));
  });

  it('joins the pages it read back without a hole: every segment from start to the live edge', async () => {
    const ch = await channelOverHours(2);
    const startMs = ch.clock.now - 90 * 60_000;
    const { playlist } = await ch.shifted(startMs);
    const numbers = playlist.segments.map((s) => s.mediaSequence);
    expect(numbers).toEqual(numbers.map((_, k) => numbers[0]! + k));
    const pdts = playlist.segments.map((s) => s.programDateTimeMs!);
    expect(pdts).toEqual(pdts.map((_, k) => pdts[0]! + k * 2000));
    expect(pdts[0]!).toBeLessThanOrEqual(startMs);
    const live = parseMediaPlaylist(await ch.runtime.playlists.mediaPlaylist('v0'));
    expect(playlist.segments.at(-1)).toEqual(live.segments.at(-1));
  });
});

describe('a history read the store cannot answer', () => {
  it("is a 503 asking for a retry, without the store's error, and the next request reads again", async () => {
    const ch = await channelOverHours(1);
    ch.store.unreachable = true;
    const failed = await ch.shifted(ch.clock.now - 30 * 60_000).catch((err: HttpError) => err);
    expect(failed).toBeInstanceOf(HttpError);
    const { status, code, message } = failed as HttpError;
    expect([status, code]).toEqual([503, 'store_unavailable']);
    expect(JSON.stringify(failed)).not.toContain('10.0.0.7');
    expect(message).not.toContain('10.0.0.7');
    ch.store.unreachable = false;
    const { playlist } = await ch.shifted(ch.clock.now - 30 * 60_000);
    expect(playlist.segments[0]!.programDateTimeMs!).toBeLessThanOrEqual(ch.clock.now - 30 * 60_000);
  });
});

describe('reading back in pages', () => {
  it('joins pages sized from the newest items into one run of items, when older items are shorter', async () => {
    // 300 items of 1 s, then 20 of a minute: a page sized from the minutes falls short of the seconds.
    const t0 = Date.UTC(2026, 0, 1);
    const lengths = [...Array(300).fill(1000), ...Array(20).fill(60_000)] as number[];
    const store = new CountedStore(() => now, 24 * HOUR);
    let startMs = t0;
    for (const [seq, durationMs] of lengths.entries()) {
      await store.append('ch', item(seq, { startMs, durationMs }), seq - 1);
      startMs += durationMs;
    }
    const now = startMs;
    store.itemsRead = 0;
    store.reads = 0;
    const history = new ChannelHistory('ch', {
      store,
      clock: () => now,
      retentionMs: 24 * HOUR,
      maxAgeMs: 1000,
    });
    const fromMs = t0 + 100_500; // item 100
    const items = await history.itemsFrom(fromMs, 315);
    console.info(`${store.reads} reads, ${store.itemsRead} items read for ${items.length} items`);
    expect(items.map((i) => i.seq)).toEqual(Array.from({ length: 221 }, (_, k) => 99 + k));
    expect(store.reads).toBeGreaterThan(2);
    expect(store.itemsRead).toBeLessThan(221 + 2 * 16);
  });
});
