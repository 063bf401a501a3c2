/**
 * What V8 allocated and paused for, read from a child's `--trace-gc-nvp` lines on its stdout (one line per
 * collection, with `allocated=` bytes since the last one and its `pause=` ms). Allocation per request is a
 * count, not a time: it compares two versions of the engine on a machine too busy for req/s to mean much.
 */
import { Writable } from 'node:stream';

export interface GcTotals {
  allocatedBytes: number;
  pauseMs: number;
  collections: number;
}

export class GcTrace {
  readonly totals: GcTotals = { allocatedBytes: 0, pauseMs: 0, collections: 0 };
  private rest = '';

  /** Give this as the child's stdout (ForkOptions.stdout): other lines are dropped. */
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
    if (!pause) return;
    this.totals.collections++;
    this.totals.pauseMs += Number(pause[1]);
    this.totals.allocatedBytes += Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0);
  }

  /** The totals since `before` (a copy of totals taken earlier). */
  since(before: GcTotals): GcTotals {
    return {
      allocatedBytes: this.totals.allocatedBytes - before.allocatedBytes,
      pauseMs: this.totals.pauseMs - before.pauseMs,
      collections: this.totals.collections - before.collections,
    };
  }
}
