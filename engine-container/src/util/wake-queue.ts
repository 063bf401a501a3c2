/**
 * Wake times, earliest first: the engine's tick takes the channels that are due from it instead of
 * scanning every channel (10,000 of them, up to 50 times a second while their planning is spread).
 * Channels wake together: created together, they start items at the same instants, and their planning
 * is spread in whole steps (channel/wake.ts). So entries are grouped by time: a min-heap orders the
 * distinct times, and pushing to a time already queued, or taking one entry of it, costs O(1).
 * Entries are never removed when a wake moves: the taker checks an entry against its owner's current
 * wake and drops it when it no longer matches.
 */
export class WakeQueue<T> {
  /** Distinct times, a binary min-heap. */
  private readonly times: number[] = [];
  /** Per queued time, its entries (never empty). */
  private readonly groups = new Map<number, T[]>();

  push(atMs: number, value: T): void {
    const group = this.groups.get(atMs);
    if (group) {
      group.push(value);
      return;
    }
    this.groups.set(atMs, [value]);
    const { times } = this;
    let i = times.push(atMs) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (times[parent]! <= atMs) break;
      times[i] = times[parent]!;
      i = parent;
    }
    times[i] = atMs;
  }

  /** The earliest time queued, undefined when empty. */
  peekMs(): number | undefined {
    return this.times[0];
  }

  /** An entry of the earliest time (the last pushed to it), without taking it. */
  peek(): T | undefined {
    const at = this.times[0];
    if (at === undefined) return undefined;
    const group = this.groups.get(at)!;
    return group[group.length - 1];
  }

  /** Takes the entry peek() returns. */
  pop(): T | undefined {
    const at = this.times[0];
    if (at === undefined) return undefined;
    const group = this.groups.get(at)!;
    const value = group.pop();
    if (group.length === 0) this.dropEarliestTime(at);
    return value;
  }

  private dropEarliestTime(at: number): void {
    this.groups.delete(at);
    const { times } = this;
    const last = times.pop()!;
    if (times.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = l < times.length && times[l]! < last ? l : -1;
      if (r < times.length && times[r]! < (min < 0 ? last : times[l]!)) min = r;
      if (min < 0) break;
      times[i] = times[min]!;
      i = min;
    }
    times[i] = last;
  }
}
