/**
 * When the engine's main thread was blocked, measured from inside: a timer asked for every TICK_MS that
 * fires late by more than `overMs` records when and by how much. A p99 in milliseconds under load is one
 * of these (a collection, a planning slice, a burst of timers), and their times say which.
 */
const TICK_MS = 2;

export interface LoopStall {
  /** Wall clock when the late timer fired. */
  atMs: number;
  /** How late it fired. */
  lateMs: number;
  /** When it fired on the monotonic clock, in µs: the clock of a `--cpu-prof` profile's timestamps. */
  monoUs: number;
}

export class LoopLag {
  private stalls: LoopStall[] = [];
  private timer: NodeJS.Timeout | undefined;

  start(overMs: number): void {
    this.stop();
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      const late = now - last - TICK_MS;
      if (late > overMs)
        this.stalls.push({ atMs: Date.now(), lateMs: late, monoUs: Number(process.hrtime.bigint() / 1000n) });
      last = now;
      this.timer = setTimeout(tick, TICK_MS);
    };
    this.timer = setTimeout(tick, TICK_MS);
  }

  /** Stops watching; the stalls seen since start(), longest first. */
  stop(): LoopStall[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const out = this.stalls.sort((a, b) => b.lateMs - a.lateMs);
    this.stalls = [];
    return out;
  }
}
