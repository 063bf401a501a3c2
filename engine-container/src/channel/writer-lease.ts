/**
 * A channel's writer lease as one engine sees it. The engine takes it before asking the asset manager,
 * keeps it renewed in the background while the ask, the VOD load and the append run (so a slow webhook
 * never lets it lapse under a live holder), and releases it once the log is extended. A holder that
 * dies stops renewing: its lease expires within ttlMs and another engine takes over. With a store that
 * has no leases, take() always succeeds (one writer process).
 */
import type { Logger } from '../../../core/logger';
import { hasLeases, type PlayoutLogStore } from '../playout/log-store';
import type { LogTail } from './log-tail';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class WriterLease {
  held = false;
  private timer: NodeJS.Timeout | undefined;
  private renewal: Promise<void> | undefined;
  /** When the last acquire or renewal that succeeded was sent: the store's expiry is no earlier than this plus ttlMs. */
  private confirmedAtMs = 0;
  /** Which holding a renewal belongs to: one answered after a release (a store that reorders calls) changes nothing. */
  private holding = 0;

  constructor(
    private readonly store: PlayoutLogStore,
    private readonly channelId: string,
    private readonly owner: string,
    readonly ttlMs: number,
    private readonly log: Logger,
  ) {}

  /** Whether the store has leases (several engines may share it). */
  get enabled(): boolean {
    return hasLeases(this.store);
  }

  /** How often a waiting engine re-reads the log: often enough to follow the holder within a segment. */
  get pollMs(): number {
    return Math.min(250, Math.max(25, this.ttlMs / 20));
  }

  /** Takes the lease (or finds it still ours); false when another engine holds it. */
  async take(): Promise<boolean> {
    if (this.held) return true;
    const { store } = this;
    if (!hasLeases(store)) {
      this.held = true;
      return true;
    }
    const sentAtMs = Date.now();
    if (!(await store.acquireLease(this.channelId, this.owner, this.ttlMs))) return false;
    this.held = true;
    this.holding++;
    this.confirmedAtMs = sentAtMs;
    // A third of the lease's life between renewals: two may fail (a store hiccup) before it lapses.
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
    return true;
  }

  /** Takes the lease, waiting for it up to maxWaitMs (a reset, which must happen); false if it never came. */
  async takeWithin(maxWaitMs: number): Promise<boolean> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      if (await this.take()) return true;
      if (Date.now() >= deadline) return false;
      await sleep(this.pollMs);
    }
  }

  /**
   * Whether the lease is still ours, for asking again within one run. A process that stalled past the
   * lease's life (its renewals could not run) may find another engine holding it, and asking then
   * spends an answer its append will lose: so past half its life since the last confirmation, it is
   * renewed first. False when lost, or when the store could not say and its life may be over: then it
   * is no longer held here, so the next ask takes it again (and a store that is down fails that take,
   * as it would fail the append, instead of being asked to renew again and again).
   */
  confirm(): boolean | Promise<boolean> {
    if (!this.held) return false;
    // Answered at once in the usual case: a run asks for several items, each confirming first.
    if (!this.enabled || Date.now() - this.confirmedAtMs < this.ttlMs / 2) return true;
    return this.confirmByRenewal();
  }

  private async confirmByRenewal(): Promise<boolean> {
    await this.renew();
    if (this.held && Date.now() - this.confirmedAtMs < this.ttlMs) return true;
    this.forget();
    return false;
  }

  /** Frees the lease; nothing to await when it was not held here (most runs take none). */
  release(): Promise<void> | undefined {
    const wasHeld = this.held;
    this.forget();
    const { store } = this;
    if (!wasHeld || !hasLeases(store)) return undefined;
    // A release that fails is harmless: the lease expires by itself.
    return store
      .releaseLease(this.channelId, this.owner)
      .catch((err: unknown) => this.log.warn('lease release failed', { channelId: this.channelId, err }));
  }

  /** Held no longer here: no renewals, and none in flight counts. */
  private forget(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.held = false;
    this.holding++;
    this.renewal = undefined;
  }

  /** Renews the lease; a renewal already in flight is waited for rather than sent twice. */
  private renew(): Promise<void> {
    if (this.renewal) return this.renewal;
    const renewal = this.sendRenewal().finally(() => {
      if (this.renewal === renewal) this.renewal = undefined;
    });
    this.renewal = renewal;
    return renewal;
  }

  private async sendRenewal(): Promise<void> {
    const { store, holding } = this;
    if (!this.held || !hasLeases(store)) return;
    const sentAtMs = Date.now();
    try {
      const renewed = await store.renewLease(this.channelId, this.owner, this.ttlMs);
      if (holding !== this.holding) return;
      if (renewed) {
        this.confirmedAtMs = sentAtMs;
        return;
      }
      // Lost (this process stalled past the expiry): another engine may be asking now. The append in
      // flight stays safe (it is conditional); the next ask takes the lease again first.
      this.log.warn('writer lease lost', { channelId: this.channelId });
      this.forget();
    } catch (err) {
      this.log.warn('lease renewal failed; retrying', { channelId: this.channelId, err });
    }
  }
}

/**
 * Waits (re-reading the log every pollMs) until the log holds an item after `seenSeq`, or timeoutMs
 * passes: how an engine without the lease follows the holder. True when an item came.
 */
export async function awaitAppend(
  tail: LogTail,
  seenSeq: number,
  timeoutMs: number,
  pollMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (tail.lastSeq !== seenSeq) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(pollMs, left));
    await tail.refresh();
  }
}
