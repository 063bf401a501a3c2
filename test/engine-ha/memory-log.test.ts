/**
 * The in-memory store packs a channel's items into strings for start-over and keeps its newest as the
 * objects appended: what it reads back is what was appended, whichever way it was kept.
 */
import { describe, expect, it } from 'vitest';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { MemoryLog, PACK_ITEMS } from '../../engine-container/src/playout/memory-log';
import { FIELDS, isPredicted, packItems, unpackItems } from '../../engine-container/src/playout/packed-items';
import { item } from './log-store-contract';

const LADDER = { variants: [{ bandwidth: 1 }] } as unknown as PlayoutItem['ladder'];

/** A loop's items: the same VOD, one after another, on one ladder (one object, as a channel's are). */
const loop = (count: number, from = 0): PlayoutItem[] =>
  Array.from({ length: count }, (_, k) => item(from + k, { id: 'a', title: 'A', uri: 'u', ladder: LADDER }));

function filledLog(count: number): { log: MemoryLog; items: PlayoutItem[] } {
  const log = new MemoryLog();
  const items = loop(count);
  for (const i of items) log.append(i);
  return { log, items };
}

describe('packed items', () => {
  it('unpack to the items packed, whatever changes from one to the next', () => {
    const items = [
      item(0, { reason: 'no content', kind: 'slate' }),
      item(1, { eventId: 'e1', timedMetadata: { id: 'x' } }),
      item(2, { startMs: item(2).startMs - 4_000, fullDurationMs: 12_000 }),
      item(3, {
        kind: 'live',
        continues: 1,
        live: { msn: 7, segments: { v0: [{ uri: 'https://live.test/7.ts', durationMs: 2_000 }] } },
      }),
      item(4, { ladder: LADDER }),
    ];
    expect(unpackItems(packItems(items))).toEqual(items);
  });

  it("write a loop's items as empty lines once two show its step", () => {
    const lines = packItems(loop(4)).split('\n');
    expect(lines.slice(2)).toEqual(['{}', '{}']);
  });

  it('write the counts of an item that breaks the step', () => {
    const items = [
      ...loop(3),
      item(3, { id: 'a', title: 'A', uri: 'u', ladder: LADDER, segmentsBefore: { v0: 99 } }),
    ];
    expect(JSON.parse(packItems(items).split('\n')[3]!)).toEqual({ segmentsBefore: { v0: 99 } });
    expect(unpackItems(packItems(items))).toEqual(items);
  });

  it("take an item for its predecessors' prediction only when every field is as predicted", () => {
    const [older, prev, next] = loop(3) as [PlayoutItem, PlayoutItem, PlayoutItem];
    expect(isPredicted(next, prev, older)).toBe(true);
    for (const key of FIELDS) {
      const value = next[key];
      const other = typeof value === 'number' ? value + 1 : typeof value === 'string' ? `${value}x` : {};
      expect(isPredicted({ ...next, [key]: other }, prev, older), key).toBe(false);
    }
  });

  it('unpack frozen, as the store hands out every item', () => {
    expect(unpackItems(packItems(loop(2))).every(Object.isFrozen)).toBe(true);
  });
});

describe("a channel's log in memory", () => {
  it('reads any range back as appended, across packed and unpacked items', () => {
    const { log, items } = filledLog(5 * PACK_ITEMS + 3);
    for (let from = 0; from <= items.length; from += 7)
      for (let to = from; to <= items.length + 2; to += 5)
        expect(log.slice(from, to)).toEqual(items.slice(from, to));
  });

  it('keeps the items after its last full run as the objects appended', () => {
    const { log, items } = filledLog(2 * PACK_ITEMS + 3);
    const newest = log.slice(2 * PACK_ITEMS, items.length);
    expect(newest).toHaveLength(3);
    for (const [k, kept] of newest.entries()) expect(kept).toBe(items[2 * PACK_ITEMS + k]);
  });

  it('drops its oldest items, packed or not, and still knows when each kept one ends', () => {
    const { log, items } = filledLog(5 * PACK_ITEMS + 3);
    log.dropOldest(PACK_ITEMS + 3);
    expect(log.firstSeq).toBe(PACK_ITEMS + 3);
    expect(log.slice(0, items.length)).toEqual(items.slice(PACK_ITEMS + 3));
    for (let k = 0; k < log.size; k++)
      expect(log.endMsAt(k)).toBe(items[PACK_ITEMS + 3 + k]!.startMs + 10_000);
    log.dropOldest(log.size - 1);
    expect(log.slice(0, items.length)).toEqual([items[items.length - 1]]);
  });

  it('packs again from where its items start once every run was dropped', () => {
    const { log, items } = filledLog(PACK_ITEMS + 5);
    log.dropOldest(PACK_ITEMS + 2);
    const more = loop(2 * PACK_ITEMS, items.length);
    for (const i of more) log.append(i);
    expect(log.slice(0, 1_000)).toEqual([...items.slice(PACK_ITEMS + 2), ...more]);
  });

  it('goes on from its last seq when every item was dropped', () => {
    const { log, items } = filledLog(3);
    log.dropOldest(99);
    expect(log.size).toBe(0);
    const next = loop(1, items.length)[0]!;
    log.append(next);
    expect(log.slice(0, 10)).toEqual([next]);
  });
});
