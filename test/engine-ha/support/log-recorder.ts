/**
 * Reads a channel's shared log every intervalMs and keeps every item it ever saw (the engines trim the
 * store behind the window). A regression is an item that changed at a seq, or a last seq that went
 * down: the log must only ever grow.
 */
import type { PlayoutItem } from '../../../engine-container/src/playout/item';
import type { PlayoutLogStore } from '../../../engine-container/src/playout/log-store';

export class LogRecorder {
  readonly items = new Map<number, PlayoutItem>();
  readonly regressions: string[] = [];
  private lastSeq = -1;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly store: PlayoutLogStore,
    private readonly channelId: string,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.reading ??= this.readOnce().finally(() => {
        this.reading = undefined;
      });
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reading;
    await this.readOnce();
  }

  get maxSeq(): number {
    return this.lastSeq;
  }

  /** Every seq from the first one seen to the last, in order (a hole is a regression too). */
  sorted(): PlayoutItem[] {
    return [...this.items.values()].sort((a, b) => a.seq - b.seq);
  }

  async readOnce(): Promise<void> {
    const items = await this.store.read(this.channelId);
    for (const item of items) {
      const seen = this.items.get(item.seq);
      if (seen && (seen.id !== item.id || seen.startMs !== item.startMs))
        this.regressions.push(
          `seq ${item.seq} changed from ${seen.id}@${seen.startMs} to ${item.id}@${item.startMs}`,
        );
      this.items.set(item.seq, item);
    }
    const last = items.at(-1)?.seq ?? -1;
    if (last < this.lastSeq) this.regressions.push(`last seq went down from ${this.lastSeq} to ${last}`);
    this.lastSeq = Math.max(this.lastSeq, last);
  }
}
