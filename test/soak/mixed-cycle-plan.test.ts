import { describe, expect, it } from 'vitest';
import {
  type CycleStep,
  eventsStartingBefore,
  MIXED_CYCLE,
  plannedEvent,
} from '../../scripts/soak/mixed/cycle-plan';

const T0 = Date.UTC(2026, 10, 26, 20, 0, 0);

describe("the mixed channel's cycle of events", () => {
  it('cycles a TS source, a CMAF source and the slate, each followed by a minute of VOD', () => {
    expect(eventsStartingBefore(T0 + 8 * 60_000, T0)).toEqual([
      { index: 0, kind: 'live-ts', startMs: T0, endMs: T0 + 60_000 },
      { index: 1, kind: 'live-cmaf', startMs: T0 + 120_000, endMs: T0 + 180_000 },
      { index: 2, kind: 'slate', startMs: T0 + 240_000, endMs: T0 + 285_000 },
      { index: 3, kind: 'live-ts', startMs: T0 + 345_000, endMs: T0 + 405_000 },
      { index: 4, kind: 'live-cmaf', startMs: T0 + 465_000, endMs: T0 + 525_000 },
    ]);
  });

  it('places the events of a later cycle as the first, shifted by whole cycles', () => {
    const cycleMs = 345_000;
    for (let k = 0; k < MIXED_CYCLE.length; k++) {
      const first = plannedEvent(k, T0);
      const later = plannedEvent(k + 10 * MIXED_CYCLE.length, T0);
      expect(later.kind).toBe(first.kind);
      expect(later.startMs - first.startMs).toBe(10 * cycleMs);
      expect(later.endMs - later.startMs).toBe(first.endMs - first.startMs);
    }
  });

  it('lists only the events from the given index on, so a running cycle never makes one twice', () => {
    const all = eventsStartingBefore(T0 + 3_600_000, T0);
    const rest = eventsStartingBefore(T0 + 3_600_000, T0, 4);
    expect(rest).toEqual(all.slice(4));
  });

  it('never overlaps two events, so each one plays from its start to its end', () => {
    const cycle: CycleStep[] = [
      { kind: 'live-ts', durationMs: 30_000, vodAfterMs: 1 },
      { kind: 'slate', durationMs: 10_000, vodAfterMs: 5_000 },
    ];
    const events = eventsStartingBefore(T0 + 600_000, T0, 0, cycle);
    for (let k = 1; k < events.length; k++) expect(events[k]!.startMs).toBeGreaterThan(events[k - 1]!.endMs);
  });
});
