import { describe, expect, it } from 'vitest';
import { DAY_MS, scheduleRange, utcDayStart } from '../../core/epg/time-range';
import { HttpError } from '../../core/errors';

const now = Date.UTC(2024, 4, 1, 15, 30);

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return err.details.field as string;
    throw err;
  }
  return undefined;
}

describe('scheduleRange', () => {
  it('turns a date into that UTC day', () => {
    expect(scheduleRange({ date: '2024-02-29' }, now, 7)).toEqual({
      fromMs: Date.UTC(2024, 1, 29),
      toMs: Date.UTC(2024, 2, 1),
    });
  });

  it('defaults to today (UTC) without parameters', () => {
    expect(scheduleRange({}, now, 7)).toEqual({
      fromMs: Date.UTC(2024, 4, 1),
      toMs: Date.UTC(2024, 4, 1) + DAY_MS,
    });
  });

  it('refuses dates that are not calendar days, naming the date field', () => {
    for (const date of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-5-1',
      'today',
      '2024-05-01T00:00:00Z',
    ]) {
      expect(fieldOf(() => scheduleRange({ date }, now, 7))).toBe('date');
    }
    expect(utcDayStart('2024-02-30')).toBeUndefined();
  });

  it('accepts start and end as ISO instants with a zone', () => {
    expect(
      scheduleRange({ start: '2024-05-01T10:00:00Z', end: '2024-05-01T14:00:00.5+02:00' }, now, 7),
    ).toEqual({
      fromMs: Date.UTC(2024, 4, 1, 10),
      toMs: Date.UTC(2024, 4, 1, 12, 0, 0, 500),
    });
  });

  it('refuses a range with a bad or missing bound, naming it', () => {
    expect(fieldOf(() => scheduleRange({ start: '2024-05-01T10:00:00Z' }, now, 7))).toBe('end');
    expect(fieldOf(() => scheduleRange({ end: '2024-05-01T10:00:00Z' }, now, 7))).toBe('start');
    expect(fieldOf(() => scheduleRange({ start: 'yesterday', end: '2024-05-01T10:00:00Z' }, now, 7))).toBe(
      'start',
    );
    expect(
      fieldOf(() => scheduleRange({ start: '2024-05-01T10:00:00', end: '2024-05-01T11:00:00Z' }, now, 7)),
    ).toBe('start');
    expect(
      fieldOf(() => scheduleRange({ start: '2024-05-01T10:00:00Z', end: '2024-05-01T10:00:00Z' }, now, 7)),
    ).toBe('end');
  });

  it('refuses a range longer than the limit', () => {
    expect(
      fieldOf(() => scheduleRange({ start: '2024-05-01T00:00:00Z', end: '2024-05-08T00:00:00Z' }, now, 7)),
    ).toBe(undefined);
    expect(
      fieldOf(() => scheduleRange({ start: '2024-05-01T00:00:00Z', end: '2024-05-08T00:00:01Z' }, now, 7)),
    ).toBe('end');
  });

  it('refuses date together with start/end', () => {
    expect(fieldOf(() => scheduleRange({ date: '2024-05-01', start: '2024-05-01T00:00:00Z' }, now, 7))).toBe(
      'date',
    );
  });
});
