import { describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../../engine-container/host/schedule/schedule-client';
import { firstChangeMs } from '../../engine-container/host/schedule/schedule-diff';

const entry = (
  id: string,
  startS: number,
  endS: number,
  more: Partial<ScheduleEntry> = {},
): ScheduleEntry => ({
  id,
  channelId: 'news',
  title: id,
  start_time: startS * 1000,
  end_time: endS * 1000,
  start: new Date(startS * 1000).toISOString(),
  end: new Date(endS * 1000).toISOString(),
  url: `https://cdn.example/${id}.m3u8`,
  duration: endS - startS,
  type: 'VOD',
  ...more,
});

const schedule = [entry('a', 0, 100), entry('b', 100, 200), entry('c', 300, 400)];
const WHOLE = [0, 1_000_000] as const;

describe('from when an edit of a schedule puts something else on air', () => {
  it('is never for the same entries, or a title changed', () => {
    expect(firstChangeMs(schedule, [...schedule], ...WHOLE)).toBeUndefined();
    const renamed = schedule.map((e) => (e.id === 'b' ? { ...e, title: 'Bravo' } : e));
    expect(firstChangeMs(schedule, renamed, ...WHOLE)).toBeUndefined();
  });

  it('is the start of an entry added or removed', () => {
    expect(firstChangeMs(schedule, [...schedule, entry('d', 220, 240)], ...WHOLE)).toBe(220_000);
    expect(firstChangeMs(schedule, schedule.slice(0, 2), ...WHOLE)).toBe(300_000);
  });

  it('is the earlier start of an entry moved, and the start of one given another URL', () => {
    const moved = [schedule[0]!, schedule[1]!, entry('c', 250, 350)];
    expect(firstChangeMs(schedule, moved, ...WHOLE)).toBe(250_000);
    const relinked = [schedule[0]!, { ...schedule[1]!, url: 'https://cdn.example/other.m3u8' }, schedule[2]!];
    expect(firstChangeMs(schedule, relinked, ...WHOLE)).toBe(100_000);
  });

  it('is the earlier end of an entry made shorter or longer', () => {
    expect(firstChangeMs(schedule, [schedule[0]!, entry('b', 100, 150), schedule[2]!], ...WHOLE)).toBe(
      150_000,
    );
  });

  it('is at the earliest the start of what both versions were read for, and ignores what lies outside', () => {
    expect(firstChangeMs(schedule, [entry('a', 0, 90), schedule[1]!, schedule[2]!], 50_000, 250_000)).toBe(
      90_000,
    );
    expect(firstChangeMs(schedule, [entry('x', 10, 20), ...schedule], 50_000, 250_000)).toBeUndefined();
    expect(firstChangeMs(schedule, schedule.slice(0, 2), 50_000, 250_000)).toBeUndefined();
    expect(firstChangeMs([], [entry('y', 20, 80)], 50_000, 250_000)).toBe(50_000);
  });

  it('leaves LIVE entries to the stream switch manager', () => {
    expect(
      firstChangeMs(schedule, [...schedule, entry('m', 210, 260, { type: 'LIVE' })], ...WHOLE),
    ).toBeUndefined();
  });
});
