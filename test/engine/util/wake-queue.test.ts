import { describe, expect, it } from 'vitest';
import { WakeQueue } from '../../../engine-container/src/util/wake-queue';

/** Every entry, in the order the queue gives them, with the time each was taken at. */
function drain<T>(queue: WakeQueue<T>): Array<[number, T]> {
  const taken: Array<[number, T]> = [];
  for (let at = queue.peekMs(); at !== undefined; at = queue.peekMs()) taken.push([at, queue.pop()!]);
  return taken;
}

describe('WakeQueue', () => {
  it('gives entries earliest time first, whatever order they were pushed in', () => {
    const queue = new WakeQueue<string>();
    const times = [50, 10, 40, 30, 20, 70, 60, 0, 90, 80];
    for (const t of times) queue.push(t, `at ${t}`);
    expect(drain(queue).map(([at]) => at)).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps every entry pushed for one time, and the time until the last is taken', () => {
    const queue = new WakeQueue<string>();
    for (const value of ['a', 'b', 'c']) queue.push(1000, value);
    queue.push(2000, 'later');
    queue.push(500, 'sooner');
    const taken = drain(queue);
    expect(taken[0]).toEqual([500, 'sooner']);
    expect(taken.slice(1, 4).map(([at]) => at)).toEqual([1000, 1000, 1000]);
    expect(
      taken
        .slice(1, 4)
        .map(([, v]) => v)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    expect(taken[4]).toEqual([2000, 'later']);
  });

  it('peeks at the entry pop takes next, and is empty once drained', () => {
    const queue = new WakeQueue<number>();
    for (let n = 0; n < 200; n++) queue.push((n * 7919) % 37, n);
    for (let at = queue.peekMs(); at !== undefined; at = queue.peekMs()) {
      const peeked = queue.peek();
      expect(queue.pop()).toBe(peeked);
    }
    expect(queue.peek()).toBeUndefined();
    expect(queue.pop()).toBeUndefined();
  });

  it('takes a time pushed again after its entries were taken', () => {
    const queue = new WakeQueue<string>();
    queue.push(10, 'first');
    expect(queue.pop()).toBe('first');
    queue.push(10, 'again');
    queue.push(5, 'before');
    expect(drain(queue)).toEqual([
      [5, 'before'],
      [10, 'again'],
    ]);
  });
});
