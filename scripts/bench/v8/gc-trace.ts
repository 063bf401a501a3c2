/**
 * What V8 allocated and paused for, read from a child's `--trace-gc-nvp` lines on its stdout (one line per
 * collection, with `allocated=` bytes since the last one, its `pause=` ms and its kind `gc=`). Allocation per
 * request is a count, not a time: it compares two versions of the engine on a machine too busy for req/s
 * to mean much. The longest pause says whether a collection can be what a p99 measures.
 */
import { Writable } from 'node:stream';

export interface GcTotals {
  allocatedBytes: number;
  pauseMs: number;
  collections: number;
}

/** Totals over a span, with its longest single pause and that collection's kind (s scavenge, mc mark-compact...). */
export interface GcSpan extends GcTotals {
  longestPauseMs: number;
  longestKind: string;
  /** Collections per kind: mark-compacts mean concurrent marking, which shares the engine's core. */
  byKind: Record<string, number>;
}

/** One collection: when its line arrived (the end of its pause, to a pipe's delay), its kind and pause. */
export interface GcEvent {
  atMs: number;
  kind: string;
  pauseMs: number;
  /** Bytes allocated since the collection before it. */
  allocatedBytes: number;
}

/** Where a span starts (what mark() returned): how many collections there were then. */
export interface GcMark {
  eventCount: number;
}

export class GcTrace {
  /** Every collection, in order: every total, count and longest pause is read from these. */
  readonly events: GcEvent[] = [];
  private rest = '';

  /** `others`: where the child's other lines go (dropped when absent). */
  constructor(private readonly others?: NodeJS.WritableStream) {}

  /** Give this as the child's stdout (ForkOptions.stdout). */
  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      const lines = (this.rest + chunk.toString()).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) this.take(line);
      done();
    },
  });

  private take(line: string): void {
    const pause = /\bpause=([\d.]+)/.exec(line);
    if (!pause) {
      this.others?.write(`${line}\n`);
      return;
    }
    this.events.push({
      atMs: Date.now(),
      kind: /\bgc=(\w+)/.exec(line)?.[1] ?? '?',
      pauseMs: Number(pause[1]),
      allocatedBytes: Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0),
    });
  }

  /** Everything traced so far. */
  get totals(): GcTotals {
    return totalsOf(this.events);
  }

  /** Starts a span, for since(). */
  mark(): GcMark {
    return { eventCount: this.events.length };
  }

  /** The span since `before` (what mark() returned). */
  since(before: GcMark): GcSpan {
    const span = this.events.slice(before.eventCount);
    const longest = span.reduce((a, e) => (e.pauseMs > a.pauseMs ? e : a), { pauseMs: 0, kind: '' });
    return {
      ...totalsOf(span),
      longestPauseMs: longest.pauseMs,
      longestKind: longest.kind,
      byKind: countByKind(span),
    };
  }
}

const totalsOf = (events: readonly GcEvent[]): GcTotals => ({
  allocatedBytes: events.reduce((sum, e) => sum + e.allocatedBytes, 0),
  pauseMs: events.reduce((sum, e) => sum + e.pauseMs, 0),
  collections: events.length,
});

const countByKind = (events: readonly GcEvent[]): Record<string, number> => {
  const byKind: Record<string, number> = {};
  for (const e of events) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
  return byKind;
};

/**
 * The seconds of a window (0 its first) that a mark-compact's CPU may fall in: the second it ended in
 * and the one before, since V8 marks concurrently for up to a second or so before the final pause.
 */
export function markCompactSeconds(events: readonly GcEvent[], fromMs: number, seconds: number): number[] {
  const marked = new Set<number>();
  for (const e of events) {
    if (e.kind !== 'mc' || e.atMs < fromMs) continue;
    const second = Math.floor((e.atMs - fromMs) / 1000);
    for (const s of [second - 1, second]) if (s >= 0 && s < seconds) marked.add(s);
  }
  return [...marked].sort((a, b) => a - b);
}

/** Collections per kind (s scavenge, mc mark-compact, ...) that ended in [fromMs, toMs). */
export const collectionsByKind = (
  events: readonly GcEvent[],
  fromMs: number,
  toMs: number,
): Record<string, number> => countByKind(events.filter((e) => e.atMs >= fromMs && e.atMs < toMs));
