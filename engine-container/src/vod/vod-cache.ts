/**
 * Parsed VODs shared by URI across every channel of the process: 1,000 channels looping one VOD hold
 * one copy. Concurrent loads of a URI share one request; a failure is remembered briefly so a broken
 * origin is not hammered by every channel at once. VODs unused for a while are evicted by `sweep`, but
 * never one a channel's log holds: each channel holds its log's VODs as its log changes (`hold`), so a
 * sweep reads no channel (a walk of 10,000 channels' logs cost about half a second of CPU on a cold
 * host).
 */
import type { ParsedVod } from './parsed-vod';
import { isGapUri, syntheticGapVod } from './synthetic-gap';

interface Entry {
  promise: Promise<ParsedVod>;
  value?: ParsedVod;
  failedAt?: number;
  usedAt: number;
  /** Used since the last sweep (get only sets this: no clock read on the request path). */
  used: boolean;
}

export interface VodCacheOptions {
  clock: () => number;
  /** How long a failed load is answered from memory. */
  failureTtlMs?: number;
  /** Entries not used for this long are dropped by sweep(). */
  idleMs?: number;
}

export class VodCache {
  private readonly entries = new Map<string, Entry>();
  /** Per URI, how many channels' logs hold it (an entry may come later: the hold does not load it). */
  private readonly holds = new Map<string, number>();
  private readonly failureTtlMs: number;
  private readonly idleMs: number;

  constructor(
    private readonly loader: (uri: string) => Promise<ParsedVod>,
    private readonly opts: VodCacheOptions,
  ) {
    this.failureTtlMs = opts.failureTtlMs ?? 5_000;
    this.idleMs = opts.idleMs ?? 600_000;
  }

  /** The parsed VOD if it is already in memory (the request path never waits for a load). */
  get(uri: string): ParsedVod | undefined {
    const entry = this.entries.get(uri);
    if (entry?.value) entry.used = true;
    return entry?.value;
  }

  load(uri: string): Promise<ParsedVod> {
    const now = this.opts.clock();
    const existing = this.entries.get(uri);
    if (existing && (existing.failedAt === undefined || now - existing.failedAt < this.failureTtlMs)) {
      existing.usedAt = now;
      return existing.promise;
    }
    const entry: Entry = {
      usedAt: now,
      used: false,
      promise: Promise.resolve(undefined as unknown as ParsedVod),
    };
    entry.promise = (
      isGapUri(uri) ? Promise.resolve().then(() => syntheticGapVod(uri)) : this.loader(uri)
    ).then(
      (vod) => {
        entry.value = vod;
        return vod;
      },
      (err: unknown) => {
        entry.failedAt = this.opts.clock();
        throw err;
      },
    );
    // A failure is also consumed here so an unobserved rejection never crashes the process.
    entry.promise.catch(() => undefined);
    this.entries.set(uri, entry);
    return entry.promise;
  }

  /** A channel's log plays `uri`: sweep keeps it until as many release() calls (channel/tail-vods.ts). */
  hold(uri: string): void {
    this.holds.set(uri, (this.holds.get(uri) ?? 0) + 1);
  }

  release(uri: string): void {
    const left = (this.holds.get(uri) ?? 0) - 1;
    if (left > 0) this.holds.set(uri, left);
    else this.holds.delete(uri);
  }

  /**
   * Drops entries neither held nor used for idleMs (a use counts from the first sweep after it, a
   * hold until the sweep after its release) and old failures.
   */
  sweep(): void {
    const now = this.opts.clock();
    for (const [uri, entry] of this.entries) {
      if (entry.used || this.holds.has(uri)) {
        entry.usedAt = now;
        entry.used = false;
      }
      const failedLongAgo = entry.failedAt !== undefined && now - entry.failedAt >= this.failureTtlMs;
      if (failedLongAgo || now - entry.usedAt >= this.idleMs) this.entries.delete(uri);
    }
  }

  /** The VODs in memory (the WebVTT slicer serves only their subtitle sources). */
  *loaded(): Generator<ParsedVod> {
    for (const entry of this.entries.values()) if (entry.value) yield entry.value;
  }

  get size(): number {
    return this.entries.size;
  }
}
