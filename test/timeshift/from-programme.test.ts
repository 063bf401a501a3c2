/**
 * Start-over from the start of the programme on air at `start` (`&from=programme`, docs/timeshift.md):
 * the programme's boundaries are the playout log's items, as the as-run log reports them.
 */
import { describe, expect, it } from 'vitest';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { programmeStartMs } from '../../engine-container/src/timeshift/programme-start';
import { shiftMaster } from '../../engine-container/src/timeshift/timeshift-playlists';
import { timeshiftRange } from '../../engine-container/src/timeshift/timeshift-range';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { HOUR, playedChannel } from './support/played-core';

const T0 = Date.UTC(2026, 0, 1);
const item = (seq: number, startMs: number, durationMs: number, extra: Partial<PlayoutItem> = {}) =>
  ({ seq, startMs, durationMs, kind: 'vod', id: `i${seq}`, title: `i${seq}`, ...extra }) as PlayoutItem;

describe('the start of the programme on air at an instant', () => {
  const log = [item(0, T0, 30_000), item(1, T0 + 30_000, 600_000), item(2, T0 + 630_000, 60_000)];

  it('is the start of the item on air then', () => {
    expect(programmeStartMs(log, T0 + 30_000)).toBe(T0 + 30_000);
    expect(programmeStartMs(log, T0 + 400_000)).toBe(T0 + 30_000);
    expect(programmeStartMs(log, T0 + 629_999)).toBe(T0 + 30_000);
  });

  it('is the switch to a LIVE event for any of its items (one per poll of its source)', () => {
    const live = (seq: number, startMs: number, inMs?: number) =>
      item(seq, startMs, 2000, {
        kind: 'live',
        eventId: 'match',
        ...(inMs ? { live: { inMs } } : {}),
      } as Partial<PlayoutItem>);
    const withInMs = [
      item(0, T0, 10_000),
      live(1, T0 + 10_000, T0 + 10_000),
      live(2, T0 + 12_000, T0 + 10_000),
    ];
    expect(programmeStartMs(withInMs, T0 + 13_000)).toBe(T0 + 10_000);
    // Items written before `inMs` existed: the event's items back to back.
    const without = [item(0, T0, 10_000), live(1, T0 + 10_000), live(2, T0 + 12_000), live(3, T0 + 14_000)];
    expect(programmeStartMs(without, T0 + 15_000)).toBe(T0 + 10_000);
  });

  it('skips an item a later cut voided (it never aired) and ends one cut short where it was cut', () => {
    // Item 1 was planned from 30 s, then a reset at 20 s replaced it and cut item 0 there.
    const cut = [item(0, T0, 30_000), item(1, T0 + 30_000, 60_000), item(2, T0 + 20_000, 60_000)];
    expect(programmeStartMs(cut, T0 + 40_000)).toBe(T0 + 20_000);
    expect(programmeStartMs(cut, T0 + 10_000)).toBe(T0);
  });

  it('is unknown for an instant the items do not cover', () => {
    expect(programmeStartMs(log, T0 - 1)).toBeUndefined();
    expect(programmeStartMs(log, T0 + 690_000)).toBeUndefined();
  });
});

describe('?start=…&from=programme on a channel that played for hours', () => {
  it('lists from the first segment of the item on air at start, numbered and dated as it was live', async () => {
    const ch = await playedChannel(2, HOUR);
    const items = await ch.core.store.read('ch');
    const onAir = items[Math.floor(items.length / 2)]!;
    const at = onAir.startMs + 13_500; // mid-item: its 7th segment
    const params = new URLSearchParams({ start: String(at / 1000), from: 'programme' });
    const range = timeshiftRange(params, ch.clock.now, 24 * HOUR)!;
    const event = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    expect(event.playlistType).toBe('EVENT');
    expect(event.segments[0]!.programDateTimeMs).toBe(onAir.startMs);
    // The same segments as a plain start-over from the programme's start.
    const plain = timeshiftRange(
      new URLSearchParams({ start: String(onAir.startMs / 1000) }),
      ch.clock.now,
      24 * HOUR,
    )!;
    expect(event).toEqual(parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', plain)));
  });

  it('with end, is the programme from its start as a VOD', async () => {
    const ch = await playedChannel(1, 10 * 60_000);
    const items = await ch.core.store.read('ch');
    const onAir = items[10]!;
    const q = {
      start: new Date(onAir.startMs + 5000).toISOString(),
      end: new Date(onAir.startMs + onAir.durationMs).toISOString(),
      from: 'programme',
    };
    const range = timeshiftRange(new URLSearchParams(q), ch.clock.now, 24 * HOUR)!;
    const vod = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    expect([vod.playlistType, vod.endList]).toEqual(['VOD', true]);
    expect(vod.segments.map((s) => s.programDateTimeMs)).toEqual(
      Array.from({ length: onAir.durationMs / 2000 }, (_, k) => onAir.startMs + k * 2000),
    );
  });

  it('is passed on by the master to every rendition', () => {
    const range = timeshiftRange(
      new URLSearchParams({ start: '1795708800', from: 'programme' }),
      1795708900_000,
      HOUR,
    )!;
    expect(shiftMaster('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n0.m3u8\n', range)).toBe(
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n0.m3u8?start=1795708800&from=programme\n',
    );
  });
});
