/**
 * One channel's playout log in the in-memory store. Its items are packed PACK_ITEMS to a string
 * (packed-items.ts; each item's line is written as it is appended) as soon as that many have been
 * appended: start-over, which reads old items rarely, unpacks what it reads. The newest, fewer than PACK_ITEMS, stay the objects appended, shared with
 * the channel's log tail (which holds the newest few items anyway). Kept items have consecutive seqs:
 * appends follow the last seq, drops take the oldest.
 */
import { itemEndMs, type PlayoutItem } from './item';
import { packedLine, unpackItems } from './packed-items';

/** Items packed into one string: enough that a run's first item, written whole, is a small part of it. */
export const PACK_ITEMS = 16;

export class MemoryLog {
  /** PACK_ITEMS items each, as packItems writes them, oldest first; runs[0] starts at seq runsFromSeq. */
  private runs: string[] = [];
  private runsFromSeq = 0;
  /** Each packed item's end, Unix ms, from runsFromSeq on: what a trim weighs without unpacking. */
  private packedEndsMs: number[] = [];
  /** The newest items, not yet a full run, and their lines of it (packedLine). */
  private unpacked: PlayoutItem[] = [];
  private lines: string[] = [];
  private first = 0;
  private last = -1;

  /** The first kept item's seq (kept items: firstSeq..lastSeq; none when firstSeq > lastSeq). */
  get firstSeq(): number {
    return this.first;
  }

  /** The last appended item's seq (-1: none yet), kept or dropped since. */
  get lastSeq(): number {
    return this.last;
  }

  get size(): number {
    return this.last - this.first + 1;
  }

  private get unpackedFromSeq(): number {
    return this.last + 1 - this.unpacked.length;
  }

  /** Appends `item` (its seq follows lastSeq), frozen: the same object goes to every reader. */
  append(item: PlayoutItem): void {
    const run = this.unpacked;
    this.lines.push(packedLine(item, run[run.length - 1], run[run.length - 2]));
    run.push(Object.freeze(item));
    this.last = item.seq;
    if (run.length < PACK_ITEMS) return;
    // Runs follow each other; a log whose runs were all dropped starts again where its items do.
    if (this.runs.length === 0) this.runsFromSeq = run[0]!.seq;
    // Joined, a run is one flat string (appending line by line would keep a rope of every line).
    this.runs.push(this.lines.join('\n'));
    for (const packed of run) this.packedEndsMs.push(itemEndMs(packed));
    this.unpacked = [];
    this.lines = [];
  }

  /** Kept items with fromSeq <= seq < toSeq, in seq order. */
  slice(fromSeq: number, toSeq: number): PlayoutItem[] {
    const from = Math.max(fromSeq, this.first);
    const to = Math.min(toSeq, this.last + 1);
    if (from >= to) return [];
    const items: PlayoutItem[] = [];
    const firstRun = Math.max(0, Math.floor((from - this.runsFromSeq) / PACK_ITEMS));
    for (let r = firstRun; r < this.runs.length && this.runsFromSeq + r * PACK_ITEMS < to; r++) {
      const runFromSeq = this.runsFromSeq + r * PACK_ITEMS;
      items.push(...unpackItems(this.runs[r]!).slice(Math.max(0, from - runFromSeq), to - runFromSeq));
    }
    const unpackedFrom = this.unpackedFromSeq;
    return items.concat(
      this.unpacked.slice(Math.max(0, from - unpackedFrom), Math.max(0, to - unpackedFrom)),
    );
  }

  /** When the kept item at `index` (0: the oldest kept) ends, Unix ms. */
  endMsAt(index: number): number {
    const seq = this.first + index;
    const unpackedFrom = this.unpackedFromSeq;
    return seq >= unpackedFrom
      ? itemEndMs(this.unpacked[seq - unpackedFrom]!)
      : this.packedEndsMs[seq - this.runsFromSeq]!;
  }

  /** Forgets the `count` oldest kept items. */
  dropOldest(count: number): void {
    this.first += Math.min(Math.max(0, count), this.size);
    const runs = Math.min(this.runs.length, Math.floor((this.first - this.runsFromSeq) / PACK_ITEMS));
    if (runs > 0) {
      this.runs.splice(0, runs);
      this.packedEndsMs.splice(0, runs * PACK_ITEMS);
      this.runsFromSeq += runs * PACK_ITEMS;
    }
    const unpackedFrom = this.unpackedFromSeq;
    if (this.first <= unpackedFrom) return;
    // Rare (a removed channel, a share of a few items): the run now starts later, so its lines change.
    const run = this.unpacked.slice(this.first - unpackedFrom);
    this.unpacked = run;
    this.lines = run.map((item, k) => packedLine(item, run[k - 1], run[k - 2]));
  }
}
