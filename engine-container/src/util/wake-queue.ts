/**
 * Wake times, earliest first: the engine's tick takes the channels that are due from it instead of
 * scanning every channel (10,000 of them, up to 50 times a second while their planning is spread).
 * Channels wake together: created together, they start items at the same instants, and their planning
 * is spread in whole steps (channel/wake.ts). So entries are grouped by time: a min-heap orders the
 * groups, and pushing to a time already queued, or taking one entry of the earliest, costs O(1).
 * Entries are never removed when a wake moves: the taker checks an entry against its owner's current
 * wake and drops it when it no longer matches.
 */
interface Group<T> {
  atMs: number;
  /** Never empty while queued. */
  values: T[];
}

export class WakeQueue<T> {
  /** The groups, a binary min-heap by time. */
  private readonly heap: Group<T>[] = [];
  private readonly byTime = new Map<number, Group<T>>();

  push(atMs: number, value: T): void {
    const group = this.byTime.get(atMs);
    if (group) {
      group.values.push(value);
      return;
    }
    const added: Group<T> = { atMs, values: [value] };
    this.byTime.set(atMs, added);
    const { heap } = this;
    let i = heap.push(added) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.atMs <= atMs) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = added;
  }

  /** The earliest time queued, undefined when empty. */
  peekMs(): number | undefined {
    return this.heap[0]?.atMs;
  }

  /** An entry of the earliest time (the last pushed to it), without taking it. */
  peek(): T | undefined {
    const values = this.heap[0]?.values;
    return values?.[values.length - 1];
  }

  /** Takes the entry peek() returns. */
  pop(): T | undefined {
    const group = this.heap[0];
    if (!group) return undefined;
    const value = group.values.pop();
    if (group.values.length === 0) this.dropEarliest();
    return value;
  }

  private dropEarliest(): void {
    this.byTime.delete(this.heap[0]!.atMs);
    const { heap } = this;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = l < heap.length && heap[l]!.atMs < last.atMs ? l : -1;
      if (r < heap.length && heap[r]!.atMs < (min < 0 ? last : heap[l]!).atMs) min = r;
      if (min < 0) break;
      heap[i] = heap[min]!;
      i = min;
    }
    heap[i] = last;
  }
}
