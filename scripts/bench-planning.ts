/**
 * The planning work of a steady engine, on a simulated clock (`npm run bench:planning`, or `tsx
 * scripts/bench-planning.ts [--channels 10000] [--minutes 5] [--rounds 3]`): CPU per item planned.
 *
 * N Loop channels of a 20 s VOD (the engine tests' fake origin) run in the real EngineCore with its
 * in-memory log; the clock jumps from one wake to the next (never less than the tick's floor,
 * MIN_TICK_MS), so simulated minutes pass in seconds and nothing but the engine's own work is timed:
 * every ask, append, item start and wake, and the collections they cause. Two simulated minutes first,
 * then each round times --minutes more. Unlike bench:engine's idle CPU (a few % of a core, read in real
 * time), most rounds agree within a tenth on a noisy machine (a full collection may fall in one):
 * compare two commits by running this from a worktree of each, in turns, several rounds. What it leaves
 * out is what real time adds: timers, the event loop's wake-ups, caches gone cold between them
 * (docs/benchmarks-history-2.md, tenth pass).
 */
import { parseArgs } from 'node:util';
import { loopChannels, tick } from './bench/fake-clock/loop-channels';
import { machineLoad } from './bench/pin';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '10000' },
    minutes: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});
const channels = Number(opts.channels);
const made = loopChannels(channels);
const { core, clock } = made;
const counts = { appended: 0, started: 0 };
core.events.subscribe((e) => {
  if (e.type === 'item_appended') counts.appended++;
  else if (e.type === 'item_started') counts.started++;
});

/** Runs the engine's ticks (loop-channels.ts) for `ms` of simulated time. */
async function simulate(ms: number): Promise<void> {
  const endMs = clock.now + ms;
  while (clock.now < endMs && (await tick(made, Number.POSITIVE_INFINITY)));
}

await core.advanceAll();
await simulate(120_000);
console.log(`${channels} channels, load ${machineLoad()}`);
for (let round = 1; round <= Number(opts.rounds); round++) {
  const [appended, started, cpu] = [counts.appended, counts.started, process.cpuUsage()];
  await simulate(Number(opts.minutes) * 60_000);
  const used = process.cpuUsage(cpu);
  const items = counts.appended - appended;
  const cpuUs = used.user + used.system;
  console.log(
    `round ${round}: ${items} items appended, ${counts.started - started} started in ${opts.minutes} ` +
      `simulated min; CPU ${(cpuUs / 1e6).toFixed(2)} s, ${(cpuUs / items).toFixed(1)} us per item appended`,
  );
}
process.exit(0);
