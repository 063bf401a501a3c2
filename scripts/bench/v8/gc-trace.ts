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
}

/** Where a span starts (what mark() returned): the totals then and how many collections there were. */
export interface GcMark extends GcTotals {
  eventCount: number;
}

export class GcTrace {
  readonly totals: GcTotals = { allocatedBytes: 0, pauseMs: 0, collections: 0 };
  /** Every collection, in order: a span's longest pause and its kinds are read from these. */
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
    const ms = Number(pause[1]);
    this.totals.collections++;
    this.totals.pauseMs += ms;
    this.totals.allocatedBytes += Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0);
    this.events.push({ atMs: Date.now(), kind: /\bgc=(\w+)/.exec(line)?.[1] ?? '?', pauseMs: ms });
  }

  /** Starts a span: the totals now, for since(). */
  mark(): GcMark {
    return { ...this.totals, eventCount: this.events.length };
  }

  /** The span since `before` (what mark() returned). */
  since(before: GcMark): GcSpan {
    const span = this.events.slice(before.eventCount);
    const longest = span.reduce((a, e) => (e.pauseMs > a.pauseMs ? e : a), { pauseMs: 0, kind: '' });
    return {
      allocatedBytes: this.totals.allocatedBytes - before.allocatedBytes,
      pauseMs: this.totals.pauseMs - before.pauseMs,
      collections: this.totals.collections - before.collections,
      longestPauseMs: longest.pauseMs,
      longestKind: longest.kind,
      byKind: countByKind(span),
    };
  }
}

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
