/**
 * What the in-memory store's start-over retention costs an engine of N channels: every channel's share
 * of MEMORY_RETAINED_ITEMS_TOTAL, as a loop of a 20 s VOD writes its items (played by the real engine
 * on a fake clock, then copied per channel with one ladder each, as a channel's items share theirs).
 * Prints, for the store as it keeps them (memory-log.ts) and for the same items held as objects (the
 * store before it packed them): heap per item, and a full collection's time with them and without;
 * then what start-over pays to read a channel's whole retention back. Asserts nothing.
 *   nice -n 19 node --expose-gc --import tsx scripts/bench-retained-log.ts [--channels 10000]
 */
import { parseArgs } from 'node:util';
import type { PlayoutItem } from '../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore } from '../engine-container/src/playout/log-store';
import { HOUR, playedChannel } from '../test/timeshift/support/played-core';

const { values: opts } = parseArgs({ options: { channels: { type: 'string', default: '10000' } } });
const channels = Number(opts.channels);
const collect = globalThis.gc;
if (!collect) throw new Error('run with node --expose-gc (see the comment at the top)');

/** Keeps every item the played channel wrote: they are the template copied to each channel. */
class KeepAllStore extends InMemoryPlayoutLogStore {
  override async trim(): Promise<void> {}
}

const probe = new InMemoryPlayoutLogStore();
for (let n = 0; n < channels; n++) await probe.append(`c${n}`, { seq: 0 } as PlayoutItem, -1);
const share = probe.retainedItemsPerChannel();

const clock = { now: Date.UTC(2025, 0, 1) };
const keepAll = new KeepAllStore(() => clock.now, 25 * HOUR);
// 20 s items: enough hours for the share and the items the engine plans ahead.
await playedChannel(((share + 20) * 20_000) / HOUR, 0, { clock, logStore: keepAll });
const template = (await keepAll.read('ch')).slice(-share);

/** One channel's copy of the template: fresh objects, one ladder for all its items. */
function channelItems(): PlayoutItem[] {
  const items = JSON.parse(JSON.stringify(template)) as PlayoutItem[];
  return items.map((item) => ({ ...item, ladder: items[0]!.ladder }));
}

function heapUsed(): number {
  collect!();
  collect!();
  return process.memoryUsage().heapUsed;
}

/** Median ms of five full collections. */
function fullCollectionMs(): number {
  const times = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    collect!();
    return performance.now() - t0;
  });
  return times.sort((a, b) => a - b)[2]!;
}

function report(label: string, bytes: number, withMs: number, withoutMs: number): void {
  console.info(
    `${label}: ${(bytes / (channels * share)).toFixed(0)} B per item (${(bytes / 1e6).toFixed(0)} MB), ` +
      `a full collection ${withMs.toFixed(0)} ms (${withoutMs.toFixed(0)} ms without them)`,
  );
}

console.info(`${channels} channels, ${share} items each (${channels * share} items)`);
const emptyMs = fullCollectionMs();
const before = heapUsed();

const asObjects: PlayoutItem[][] = [];
for (let n = 0; n < channels; n++) asObjects.push(channelItems().map((item) => Object.freeze(item)));
report('as objects', heapUsed() - before, fullCollectionMs(), emptyMs);
asObjects.length = 0;

const store = new InMemoryPlayoutLogStore(() => clock.now, 25 * HOUR);
const baseline = heapUsed();
for (let n = 0; n < channels; n++) {
  const items = channelItems();
  for (const [k, item] of items.entries()) await store.append(`c${n}`, { ...item, seq: k }, k - 1);
}
report('as the store keeps them', heapUsed() - baseline, fullCollectionMs(), emptyMs);

const reads = 200;
const t0 = performance.now();
for (let n = 0; n < reads; n++) await store.read(`c${n % channels}`);
console.info(`reading a channel's ${share} items back: ${((performance.now() - t0) / reads).toFixed(3)} ms`);
