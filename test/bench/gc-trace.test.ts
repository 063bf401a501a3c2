/** The benchmark's reading of V8's `--trace-gc-nvp` lines (scripts/bench/v8/gc-trace.ts). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  collectionsByKind,
  type GcEvent,
  GcTrace,
  markCompactSeconds,
} from '../../scripts/bench/v8/gc-trace';

const line = (kind: string, pause: number) =>
  `[1:0x1]      68 ms: pause=${pause} mutator=6.0 gc=${kind} reduce_memory=0 allocated=1000\n`;

describe('reading a child’s collections', () => {
  it('counts each collection by kind and passes every other line on', async () => {
    const others = new PassThrough();
    const passed: string[] = [];
    others.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
    const trace = new GcTrace(others);
    await new Promise<void>((resolve) =>
      trace.stream.write(`${line('s', 1.5)}{"level":"warn"}\n${line('mc', 14.7)}`, () => resolve()),
    );
    expect(trace.events.map((e) => [e.kind, e.pauseMs])).toEqual([
      ['s', 1.5],
      ['mc', 14.7],
    ]);
    expect(trace.totals).toMatchObject({ collections: 2, allocatedBytes: 2000 });
    expect(passed.join('')).toBe('{"level":"warn"}\n');
  });
});

describe('the seconds of a window a mark-compact falls in', () => {
  const at = (atMs: number, kind = 'mc'): GcEvent => ({ atMs, kind, pauseMs: 10, allocatedBytes: 0 });

  it('are the second it ended in and the one before, its concurrent marking', () => {
    expect(markCompactSeconds([at(10_500)], 1000, 25)).toEqual([8, 9]);
  });

  it('leave out scavenges and collections outside the window', () => {
    expect(markCompactSeconds([at(1500, 's'), at(500), at(40_000)], 1000, 25)).toEqual([]);
  });

  it('name a second once when two collections share it', () => {
    expect(markCompactSeconds([at(1200), at(1800), at(2100)], 1000, 25)).toEqual([0, 1]);
  });
});

describe('the collections of a window', () => {
  it('are counted by kind, those that ended in it only', () => {
    const events: GcEvent[] = [
      { atMs: 900, kind: 's', pauseMs: 1, allocatedBytes: 0 },
      { atMs: 1000, kind: 's', pauseMs: 1, allocatedBytes: 0 },
      { atMs: 5000, kind: 'mc', pauseMs: 9, allocatedBytes: 0 },
      { atMs: 26_000, kind: 's', pauseMs: 1, allocatedBytes: 0 },
    ];
    expect(collectionsByKind(events, 1000, 26_000)).toEqual({ s: 1, mc: 1 });
  });
});

describe('a span of collections', () => {
  it('holds only what came after its mark: the totals, the kinds and the longest pause', async () => {
    const trace = new GcTrace();
    const feed = (text: string) => new Promise<void>((resolve) => trace.stream.write(text, () => resolve()));
    await feed(line('mc', 40));
    const before = trace.mark();
    await feed(`${line('s', 2)}${line('mc', 9)}${line('s', 1)}`);
    expect(trace.since(before)).toEqual({
      allocatedBytes: 3000,
      pauseMs: 12,
      collections: 3,
      longestPauseMs: 9,
      longestKind: 'mc',
      byKind: { s: 2, mc: 1 },
    });
  });
});
