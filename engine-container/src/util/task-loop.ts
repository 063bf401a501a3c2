/**
 * A timer-driven task that never overlaps itself (hls.js task-loop style): the next run is armed only
 * after the current one settles, after the delay the task returns (or the default). stop() disarms it.
 */
export class TaskLoop {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;

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
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs as soon as possible (no-op while a run is in flight: that run re-arms). */
  poke(): void {
    if (!this.running && !this.stopped) this.arm(0);
  }

  private arm(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), Math.max(0, delayMs));
  }

  private async run(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    let next = this.defaultDelayMs;
    try {
      const delay = await this.task();
      if (typeof delay === 'number') next = delay;
    } catch (err) {
      this.onError(err);
    } finally {
      this.running = false;
      if (!this.stopped) this.arm(next);
    }
  }
}
