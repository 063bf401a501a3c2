/**
 * N Loop channels of one VOD in the engine's core on a fake clock, for the profiling scripts that
 * measure CPU rather than wall time (profile-engine-renders.ts, profile-engine-wakes.ts): no I/O,
 * timers or requests, just what the engine's own work costs.
 */
import { MIN_TICK_MS } from '../../../engine-container/src/tick-ceiling';
import {
  fakeWorld,
  makeCore,
  ScriptedAssetManager,
  vodResponse,
} from '../../../test/engine/helpers/engine-fixtures';

export type FakeClockCore = ReturnType<typeof makeCore>;

/** The core with `channels` Loop channels created (not yet advanced). */
export function loopChannels(channels: number): FakeClockCore {
  const world = fakeWorld();
  const made = makeCore(new ScriptedAssetManager(() => vodResponse(world.a)), { fetch: world.origin.fetch });
  for (let n = 0; n < channels; n++) made.core.upsertChannel({ id: `c${n}`, name: `c${n}` });
  return made;
}

/** The next wake after the last tick, as the engine's tick learns it (no scan of every channel). */
const nextWake = new WeakMap<FakeClockCore, number>();

/**
 * One tick as the engine drives it: the clock moved to the next channel due, but at least the tick's
 * floor on (MIN_TICK_MS, tick-ceiling.ts), and every due channel advanced. False, with the clock left
 * alone, when none is due by `untilMs`.
 */
export async function tick(made: FakeClockCore, untilMs: number): Promise<boolean> {
  const { core, clock } = made;
  const dueMs = nextWake.get(made) ?? core.nextWakeMs();
  if (dueMs > untilMs) return false;
  clock.now = Math.max(dueMs, clock.now + MIN_TICK_MS);
  const wakes = await Promise.all(await core.kickDue());
  nextWake.set(made, Math.min(core.laterWakeMs, ...wakes));
  return true;
}
