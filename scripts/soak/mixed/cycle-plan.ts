/**
 * The mixed channel's cycle of live events (docs/soak.md#the-mixed-channel), pure: a TS live source,
 * the VOD, a CMAF live source, the VOD, the slate, the VOD, and again. Each event is numbered; the
 * k-th starts at a time that follows from the first's alone, so the plan for any stretch of a run of
 * hours is known without state.
 */

/** What an event puts on air: a TS or CMAF ffmpeg source, or the slate (a source the channel refuses). */
export type EventKind = 'live-ts' | 'live-cmaf' | 'slate';

export interface CycleStep {
  kind: EventKind;
  /** How long the event lasts. */
  durationMs: number;
  /** How long the VOD (with its preroll) plays after it, before the next event. */
  vodAfterMs: number;
}

export interface PlannedEvent {
  /** 0 for the first event of the run, counting on across cycles. */
  index: number;
  kind: EventKind;
  startMs: number;
  endMs: number;
}

export const MIXED_CYCLE: readonly CycleStep[] = [
  { kind: 'live-ts', durationMs: 60_000, vodAfterMs: 60_000 },
  { kind: 'live-cmaf', durationMs: 60_000, vodAfterMs: 60_000 },
  { kind: 'slate', durationMs: 45_000, vodAfterMs: 60_000 },
];

const stepMs = (s: CycleStep) => s.durationMs + s.vodAfterMs;

/** The event numbered `index` of a run whose first event starts at `firstStartMs`. */
export function plannedEvent(
  index: number,
  firstStartMs: number,
  cycle: readonly CycleStep[] = MIXED_CYCLE,
): PlannedEvent {
  const cycleMs = cycle.reduce((sum, s) => sum + stepMs(s), 0);
  const step = index % cycle.length;
  const startMs =
    firstStartMs +
    Math.floor(index / cycle.length) * cycleMs +
    cycle.slice(0, step).reduce((sum, s) => sum + stepMs(s), 0);
  const { kind, durationMs } = cycle[step]!;
  return { index, kind, startMs, endMs: startMs + durationMs };
}

/** The events from `fromIndex` on that start before `untilMs`, in order. */
export function eventsStartingBefore(
  untilMs: number,
  firstStartMs: number,
  fromIndex = 0,
  cycle: readonly CycleStep[] = MIXED_CYCLE,
): PlannedEvent[] {
  const out: PlannedEvent[] = [];
  for (let k = fromIndex; ; k++) {
    const event = plannedEvent(k, firstStartMs, cycle);
    if (event.startMs >= untilMs) return out;
    out.push(event);
  }
}
