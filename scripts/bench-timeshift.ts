/**
 * What a time-shifted media playlist costs the engine (docs/timeshift.md): a channel that played 24 h
 * of 20 s items of 2 s segments (43,200 segments), then per request shape the ms (the answer encoded
 * as the server writes it) and bytes of one request, and what the rendered histories hold. Prints figures; asserts nothing.
 *   nice -n 19 node --expose-gc --import tsx scripts/bench-timeshift.ts
 */
import { InMemoryPlayoutLogStore } from '../engine-container/src/playout/log-store';
import { timeshiftRange } from '../engine-container/src/timeshift/timeshift-range';
import { HOUR, playedChannel } from '../test/timeshift/support/played-core';

/** Keeps the whole day (the in-memory store keeps 1,000 items): what Redis or DynamoDB hold. */
class KeepAllStore extends InMemoryPlayoutLogStore {
  override async trim(): Promise<void> {}
}

const clock = { now: Date.UTC(2025, 0, 1) };
const built = performance.now();
const ch = await playedChannel(24.05, 0, { clock, logStore: new KeepAllStore(() => clock.now, 25 * HOUR) });
console.info(`played 24 h on a fake clock in ${Math.round(performance.now() - built)} ms`);

const media = (query: Record<string, string>) =>
  ch.core.timeshift.media(
    ch.runtime,
    'v0',
    timeshiftRange(new URLSearchParams(query), clock.now, 24 * HOUR)!,
  );

/** ms to the answer, ms to it encoded as the server writes it (the one copy every answer costs), bytes. */
async function timed(query: Record<string, string>): Promise<[number, number, number]> {
  const t0 = performance.now();
  const body = await media(query);
  const t1 = performance.now();
  const bytes = Buffer.from(body).length;
  return [t1 - t0, performance.now() - t0, bytes];
}

function report(label: string, runs: Array<[number, number, number]>): void {
  const mean = (k: number) => runs.reduce((sum, r) => sum + r[k]!, 0) / runs.length;
  console.info(
    `${label}: ${mean(0).toFixed(2)} ms (${mean(1).toFixed(2)} ms encoded) and ${(mean(2) / 1e6).toFixed(2)} MB per request`,
  );
}

async function measure(label: string, requests: number, query: (n: number) => Record<string, string>) {
  const runs: Array<[number, number, number]> = [];
  for (let n = 0; n < requests; n++) runs.push(await timed(query(n)));
  report(label, runs);
}

const dayAgo = clock.now - 24 * HOUR + 60_000;
const s = (ms: number) => String(ms / 1000);
/** The heap after a full collection (run with node --expose-gc for it; else as it is). */
const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};
const heapBefore = heap();
await measure('24 h EVENT, first request', 1, () => ({ start: s(dayAgo) }));
await measure('24 h EVENT, the same again', 20, () => ({ start: s(dayAgo) }));
await measure('24 h EVENT, another start in the same segment', 20, (n) => ({ start: s(dayAgo + 1 + n) }));
await measure('24 h EVENT, a new start each request (segment apart)', 20, (n) => ({
  start: s(dayAgo + (n + 1) * 2000),
}));
// An EVENT reload: the clock moves one segment on, the channel appends, the player reloads.
const reloads: Array<[number, number, number]> = [];
for (let n = 0; n < 20; n++) {
  clock.now += 2000;
  if (ch.runtime.playout.nextWakeMs() <= clock.now) await ch.runtime.playout.advance();
  reloads.push(await timed({ start: s(dayAgo) }));
}
report('24 h EVENT reload a segment later', reloads);
await measure('1 h VOD (start and end)', 20, (n) => ({ start: s(dayAgo + n * 2000), end: s(dayAgo + HOUR) }));
const held = ch.core.timeshift.cache;
const perCounted = (heap() - heapBefore) / held.bytes;
console.info(
  `heap grown by the requests: ${((heap() - heapBefore) / 1e6).toFixed(1)} MB (histories and the channel's read history), ` +
    `${perCounted.toFixed(2)} heap bytes per counted byte: at its bound, ~${((perCounted * held.maxBytes) / 1e6).toFixed(0)} MB`,
);
console.info(
  `rendered histories: ${(held.bytes / 1e6).toFixed(1)} MB held, bound ${(held.maxBytes / 1e6).toFixed(0)} MB`,
);
console.info(`heap used: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
