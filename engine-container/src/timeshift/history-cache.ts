/**
 * The rendered histories (rendered-history.ts) of every channel's renditions, bounded in bytes, not
 * entries: a day of 2 s segments is ~4 MB per rendition, a day of 30-minute items far less. The least
 * recently used go first; a history larger than the whole bound is not kept (each request renders its
 * window whole, as without a cache).
 */
import type { RenderedHistory } from './rendered-history';

export class HistoryCache {
  private readonly entries = new Map<string, RenderedHistory>();

  constructor(readonly maxBytes: number) {}

  /** The rendition's history, now the most recently used. */
  get(channelId: string, key: string): RenderedHistory | undefined {
    const id = `${channelId}\n${key}`;
    const history = this.entries.get(id);
    if (history) {
      this.entries.delete(id);
      this.entries.set(id, history);
    }
    return history;
  }

  /** Keeps (or re-counts, after it grew) the rendition's history, evicting the least recently used beyond the bound. */
  set(channelId: string, key: string, history: RenderedHistory): void {
    const id = `${channelId}\n${key}`;
    this.entries.delete(id);
    this.entries.set(id, history);
    let bytes = this.bytes;
    for (const [other, h] of this.entries) {
      if (bytes <= this.maxBytes) break;
      bytes -= h.bytes;
      this.entries.delete(other);
    }
  }

  /** What the histories held take, as counted (their text and offsets). */
  get bytes(): number {
    let n = 0;
    for (const h of this.entries.values()) n += h.bytes;
    return n;
  }

  /** Forgets a channel's histories (the channel was removed). */
  forget(channelId: string): void {
    for (const id of [...this.entries.keys()]) if (id.startsWith(`${channelId}\n`)) this.entries.delete(id);
  }
}
