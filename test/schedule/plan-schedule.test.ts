import { describe, expect, it } from 'vitest';
import type { FeedItem, ScheduleCursor } from '../../functions/schedule/model';
import { nextItemIndex, planSchedule, restartTime } from '../../functions/schedule/planning/plan-schedule';

const HOUR = 3600_000;
const items: FeedItem[] = [
  { id: 'a', title: 'A', url: 'http://vod/a.m3u8', durationMs: 600_000 },
  { id: 'b', title: 'B', url: 'http://vod/b.m3u8', durationMs: 1_200_000 },
  { id: 'c', title: 'C', url: 'http://vod/c.m3u8', durationMs: 300_500 },
];
const now = Date.UTC(2024, 4, 1, 12, 0, 0, 250);

function ids() {
  let n = 0;
  return () => `id-${++n}`;
}

const plan = (
  cursor: ScheduleCursor | undefined,
  overrides: Partial<Parameters<typeof planSchedule>[0]> = {},
) =>
  planSchedule({
    channelId: 'ch',
    cursor,
    items,
    nowMs: now,
    horizonMs: 6 * HOUR,
    newId: ids(),
    ...overrides,
  });

describe('planSchedule', () => {
  it('starts an empty schedule at now floored to the whole second', () => {
    const first = plan(undefined).planned[0]!.entry;
    expect(first.start_time).toBe(restartTime(now));
    expect(first.start_time).toBeLessThanOrEqual(now);
    expect(now - first.start_time).toBeLessThan(1000);
  });

  it('makes every entry start where the previous one ends', () => {
    const entries = plan(undefined).planned.map((p) => p.entry);
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.start_time).toBe(entries[i - 1]!.end_time);
  });

  it('fills exactly up to the horizon: the last entry crosses it, the one before does not', () => {
    const entries = plan(undefined).planned.map((p) => p.entry);
    const horizonEnd = now + 6 * HOUR;
    expect(entries.at(-1)!.end_time).toBeGreaterThanOrEqual(horizonEnd);
    expect(entries.at(-2)!.end_time).toBeLessThan(horizonEnd);
  });

  it('plays the feed in order, round robin', () => {
    const titles = plan(undefined)
      .planned.slice(0, 7)
      .map((p) => p.entry.title);
    expect(titles).toEqual(['A', 'B', 'C', 'A', 'B', 'C', 'A']);
  });

  it('continues after the feed entry that was scheduled last', () => {
    const cursor = { endTime: now + HOUR, lastItemId: 'b', lastItemIndex: 1 };
    const planned = plan(cursor).planned;
    expect(planned[0]!.entry.title).toBe('C');
    expect(planned[0]!.entry.start_time).toBe(cursor.endTime);
  });

  it('follows the last entry by id when the feed was reordered', () => {
    const reordered = [items[1]!, items[2]!, items[0]!];
    const cursor = { endTime: now + HOUR, lastItemId: 'c', lastItemIndex: 2 };
    expect(plan(cursor, { items: reordered }).planned[0]!.entry.title).toBe('A');
  });

  it('falls back to the position after the old index when the last entry left the feed', () => {
    const cursor = { endTime: now + HOUR, lastItemId: 'gone', lastItemIndex: 0 };
    expect(nextItemIndex(cursor, items)).toBe(1);
    expect(nextItemIndex({ ...cursor, lastItemIndex: 7 }, items)).toBe(2);
  });

  it('restarts at now when the schedule ended in the past', () => {
    const cursor = { endTime: now - 2 * HOUR, lastItemId: 'a', lastItemIndex: 0 };
    const first = plan(cursor).planned[0]!.entry;
    expect(first.start_time).toBe(restartTime(now));
    expect(first.title).toBe('B');
  });

  it('never overlaps a schedule that ended less than a second ago', () => {
    const cursor = { endTime: now - 100, lastItemId: 'a', lastItemIndex: 0 };
    expect(restartTime(now)).toBeLessThan(cursor.endTime);
    expect(plan(cursor).planned[0]!.entry.start_time).toBe(cursor.endTime);
  });

  it('plans nothing when the schedule already reaches the horizon', () => {
    const cursor = { endTime: now + 6 * HOUR, lastItemId: 'a', lastItemIndex: 0 };
    const result = plan(cursor);
    expect(result.planned).toEqual([]);
    expect(result.cursor).toBe(cursor);
  });

  it('plans nothing from a feed without usable items', () => {
    expect(plan(undefined, { items: [] }).planned).toEqual([]);
    expect(plan(undefined, { items: [{ ...items[0]!, durationMs: 0 }] }).planned).toEqual([]);
  });

  it('gives each entry the API fields: ISO times, duration in seconds, type VOD, a fresh id', () => {
    const planned = plan(undefined).planned;
    const { entry } = planned[2]!;
    expect(entry).toEqual({
      id: 'id-3',
      channelId: 'ch',
      title: 'C',
      url: 'http://vod/c.m3u8',
      start_time: entry.start_time,
      end_time: entry.start_time + 300_500,
      start: new Date(entry.start_time).toISOString(),
      end: new Date(entry.start_time + 300_500).toISOString(),
      duration: 300.5,
      type: 'VOD',
    });
    expect(new Set(planned.map((p) => p.entry.id)).size).toBe(planned.length);
  });

  it('tracks the cursor after every entry', () => {
    const result = plan(undefined);
    result.planned.forEach(({ entry, cursor }) => {
      expect(cursor.endTime).toBe(entry.end_time);
      expect(items[cursor.lastItemIndex]!.id).toBe(cursor.lastItemId);
    });
    expect(result.cursor).toEqual(result.planned.at(-1)!.cursor);
  });

  it('stops at maxEntries when a feed of tiny VODs would run away', () => {
    const tiny = [{ id: 't', title: 'T', url: 'http://vod/t.m3u8', durationMs: 1 }];
    expect(plan(undefined, { items: tiny, maxEntries: 50 }).planned).toHaveLength(50);
  });
});

describe('planning around manual entries', () => {
  it('never plans over a manual entry: the entry that would overlap it starts where it ends', () => {
    const start = restartTime(now);
    const manual = [{ start_time: start + 700_000, end_time: start + 760_000 }];
    const { planned } = plan(undefined, { manual, horizonMs: HOUR });
    for (const { entry } of planned)
      expect(entry.end_time <= manual[0]!.start_time || entry.start_time >= manual[0]!.end_time).toBe(true);
    expect(planned[0]!.entry.end_time).toBe(start + 600_000);
    expect(planned[1]!.entry.start_time).toBe(start + 760_000);
  });
});
