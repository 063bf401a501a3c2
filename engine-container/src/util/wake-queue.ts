/**
 * A binary min-heap of wake times: the engine's tick takes the channels that are due from it instead
 * of scanning every channel (10,000 of them, up to 50 times a second while their planning is spread).
 * Entries are never removed when a wake moves: the taker checks an entry against its owner's current
 * wake and drops it when it no longer matches.
 */
export interface Wake<T> {
  atMs: number;
  value: T;
}

export class WakeQueue<T> {
  private readonly heap: Wake<T>[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(atMs: number, value: T): void {
    const heap = this.heap;
    heap.push({ atMs, value });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.atMs <= heap[i]!.atMs) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  peek(): Wake<T> | undefined {
    return this.heap[0];
  }

  pop(): Wake<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || !last) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < heap.length && heap[l]!.atMs < heap[min]!.atMs) min = l;
      if (r < heap.length && heap[r]!.atMs < heap[min]!.atMs) min = r;
      if (min === i) return top;
      [heap[min], heap[i]] = [heap[i]!, heap[min]!];
      i = min;
    }
  }
}
