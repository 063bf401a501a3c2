/**
 * What serving a live media playlist costs the engine outside node:http, on a fake clock
 * (`tsx scripts/profile-engine-renders.ts [--channels 10000] [--seconds 60] [--every-ms 1000]`): N Loop
 * channels of one VOD, driven by the engine's tick, and every `--every-ms` one request per channel for
 * its first rendition, answered as routes.ts answers it (the playlist's bytes, rendered or cached). A
 * request renders when its channel's window moved or its log changed since the last one (at 10,000
 * channels under the benchmark's load, most requests). Prints the CPU per request and per render.
 * Measures CPU, not wall time: a busy machine changes it little; run two versions in turns. Run it
 * with `node --cpu-prof --import tsx` for a profile.
 */
import { parseArgs } from 'node:util';
import { loopChannels, tick } from './bench/fake-clock/loop-channels';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    'every-ms': { type: 'string', default: '1000' },
  },
});
const N = Number(opts.channels);
const EVERY_MS = Number(opts['every-ms']);

const engine = loopChannels(N);
const { core, clock } = engine;
await core.advanceAll();

/** One request as routes.ts answers it: the bytes sent. */
async function request(n: number): Promise<unknown> {
  const { playlists } = core.channel(`c${n}`)!;
  const ready = playlists.readyMediaPlaylist('v0') ?? (await playlists.renderedMediaPlaylist('v0'));
  return ready.bytes;
}

async function tickUntil(ms: number): Promise<void> {
  while (await tick(engine, ms));
  clock.now = ms;
}

const last: unknown[] = new Array(N);
let requests = 0;
let renders = 0;
let cpuUs = 0;
const t0 = clock.now;
// A first round warms the caches and the JIT; then the measured rounds.
for (let round = 0; clock.now < t0 + Number(opts.seconds) * 1000; round++) {
  await tickUntil(t0 + round * EVERY_MS);
  const start = process.cpuUsage();
  for (let n = 0; n < N; n++) {
    const bytes = await request(n);
    if (round === 0) last[n] = bytes;
    else if (bytes !== last[n]) {
      renders++;
      last[n] = bytes;
    }
  }
  const used = process.cpuUsage(start);
  if (round > 0) {
    cpuUs += used.user + used.system;
    requests += N;
  }
}
console.log(
  `${N} channels, one request each every ${EVERY_MS} ms for ${opts.seconds} s: ${requests} requests, ` +
    `${((100 * renders) / requests).toFixed(0)} % rendered; ${(cpuUs / requests).toFixed(2)} µs CPU per ` +
    `request, ${(cpuUs / Math.max(1, renders)).toFixed(2)} µs per render (all CPU of the rounds over renders)`,
);
