/**
 * A timer-driven task that never overlaps itself (hls.js task-loop style): the next run is armed only
 * after the current one settles, after the delay the task returns (or the default), or at once when it
 * was poked meanwhile. stop() disarms it.
 */
export class TaskLoop {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Poked during a run: what the run computed its delay from may be out of date. */
  private poked = false;
  private stopped = true;
  /** Armed with no delay: a poke has nothing to bring forward. */
  private armedNow = false;

  constructor(
    private readonly task: () => number | undefined | Promise<number | undefined> | Promise<void> | void,
    private readonly defaultDelayMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(initialDelayMs = 0): void {
    this.stopped = false;
    this.arm(initialDelayMs);
  }

  stop(): void {
    this.stopped = true;
    this.armedNow = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs as soon as possible (while a run is in flight: again as soon as it ends). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) this.poked = true;
    // Already armed to run at once: every channel added pokes the tick (100,000 at start-up).
    else if (!this.armedNow) this.arm(0);
  }

  private arm(delayMs: number): void {
    clearTimeout(this.timer);
    this.armedNow = delayMs <= 0;
    this.timer = setTimeout(() => void this.run(), Math.max(0, delayMs));
  }

  private async run(): Promise<void> {
    this.armedNow = false;
    if (this.running || this.stopped) return;
    this.running = true;
    this.poked = false;
    let next = this.defaultDelayMs;
    try {
      const delay = await this.task();
      if (typeof delay === 'number') next = delay;
    } catch (err) {
      this.onError(err);
    } finally {
      this.running = false;
      if (!this.stopped) this.arm(this.poked ? 0 : next);
    }
  }
}
