/**
 * The engine tick: channels that change VOD in the same second plan their next items spread over
 * several seconds, several short items in one run, and announce their starts without a run; when many channels are due at once,
 * their advances are started in slices with a turn of the event loop between slices, so requests are
 * served meanwhile; every wake of a channel does the work it woke for; and the tick sleeps at least
 * MIN_TICK_MS, so that channels due a few milliseconds apart share one tick.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_BATCH_MS, PLAN_SPREAD_MS, planBatchMs } from '../../engine-container/src/channel/wake';
import { KICK_SLICE } from '../../engine-container/src/engine-core';
import { logEndMs } from '../../engine-container/src/playout/append';
import {
  MIN_ADAPTIVE_TICK_CEILING_MS,
  MIN_TICK_MS,
  tickSleepMs,
} from '../../engine-container/src/tick-ceiling';
import { TaskLoop } from '../../engine-container/src/util/task-loop';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';

const CHANNELS = 200;

/** CHANNELS Loop channels started together, so that they are all due at the same instant. */
async function loopChannels(count = CHANNELS, { changesAhead = false } = {}) {
  const world = fakeWorld();
  const am = Object.assign(new ScriptedAssetManager(() => vodResponse(world.a)), {
    changesAhead: () => changesAhead,
  });
  const { core, clock } = makeCore(am, { fetch: world.origin.fetch });
  const channels = Array.from({ length: count }, (_, n) =>
    core.upsertChannel({ id: `c${n}`, name: `c${n}` }),
  );
  await core.advanceAll();
  return { core, clock, channels };
}

type Tick = Awaited<ReturnType<typeof loopChannels>>;

/**
 * Wakes the channel at each of its wakes until one appends: the items that wake appended, the runs the
 * wakes took, and how far ahead the log reached when that wake began.
 */
async function wakeUntilItAppends(
  core: Tick['core'],
  clock: Tick['clock'],
  playout: Tick['channels'][number]['playout'],
) {
  let appended = 0;
  core.events.subscribe((e) => e.type === 'item_appended' && appended++);
  let runs = 0;
  let leadMs = 0;
  while (appended === 0) {
    clock.now = playout.nextWakeMs();
    leadMs = logEndMs(playout.tail.items) - clock.now;
    const run = playout.wake();
    if (run) runs++;
    await run;
  }
  return { appended, runs, leadMs };
}

/** The latest wake among the channels: by then every one of them is due. */
const allDueAt = (channels: Array<{ playout: { nextWakeMs(): number } }>): number =>
  Math.max(...channels.map((c) => c.playout.nextWakeMs()));

/** Counts turns of the event loop (check phases) until stopped: `turn` is the current one. */
class TurnCounter {
  turn = 0;
  private running = true;

  constructor() {
    setImmediate(() => this.next());
  }

  stop(): void {
    this.running = false;
  }

  private next(): void {
    if (!this.running) return;
    this.turn++;
    setImmediate(() => this.next());
  }
}

const countBy = (values: number[]): number[] => {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()];
};

describe('the engine tick', () => {
  it('starts the advances of channels due together in slices, with a turn of the event loop between', async () => {
    const { core, clock, channels } = await loopChannels();
    clock.now = allDueAt(channels);
    expect(channels.every((c) => c.playout.nextWakeMs() <= clock.now)).toBe(true);
    const startedInTurn: number[] = [];
    const appendedInTurn = new Map<number, Set<string>>();
    // Scheduled before the tick starts: it must get its turn before the tick has advanced every channel.
    const turns = new TurnCounter();
    for (const { playout } of channels) {
      const advance = playout.advance.bind(playout);
      vi.spyOn(playout, 'advance').mockImplementation(() => {
        startedInTurn.push(turns.turn);
        return advance();
      });
    }
    core.events.subscribe((e) => {
      if (e.type !== 'item_appended') return;
      const inTurn = appendedInTurn.get(turns.turn) ?? new Set<string>();
      appendedInTurn.set(turns.turn, inTurn.add(e.channelId));
    });

    const runs = await core.kickDue();
    await Promise.all(runs);
    turns.stop();

    expect(runs).toHaveLength(CHANNELS);
    expect(startedInTurn).toHaveLength(CHANNELS);
    // The longest block without a turn of the event loop starts (and here, runs) one slice of advances.
    expect(Math.max(...countBy(startedInTurn))).toBeLessThanOrEqual(KICK_SLICE);
    expect(countBy(startedInTurn).length).toBeGreaterThanOrEqual(Math.ceil(CHANNELS / KICK_SLICE));
    // The channels did their work (each appended its next items), spread over those turns too.
    const appending = [...appendedInTurn.values()];
    expect(new Set(appending.flatMap((inTurn) => [...inTurn])).size).toBe(CHANNELS);
    expect(Math.max(...appending.map((inTurn) => inTurn.size))).toBeLessThanOrEqual(KICK_SLICE);
  });

  it('starts no more advances once the engine is stopping, and idle() waits for the ones started', async () => {
    const { core, clock, channels } = await loopChannels();
    clock.now = allDueAt(channels);
    let proceed = true;
    const kick = core.kickDue(() => proceed);
    // The first slice starts at once; stopping takes effect at the next slice.
    proceed = false;
    const runs = await kick;
    await core.idle();

    // One slice: KICK_SLICE advances, or fewer when they took KICK_SLICE_MS (a loaded machine).
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.length).toBeLessThanOrEqual(KICK_SLICE);
    const stillDue = channels.filter((c) => c.playout.nextWakeMs() <= clock.now);
    expect(stillDue).toHaveLength(CHANNELS - runs.length);
  });

  it('spreads the planning of channels whose items end in the same second over several seconds', async () => {
    const { core, clock } = await loopChannels();
    const planningInSecond = new Map<number, Set<string>>();
    core.events.subscribe((e) => {
      if (e.type !== 'item_appended') return;
      const second = Math.floor(clock.now / 1000);
      planningInSecond.set(second, (planningInSecond.get(second) ?? new Set()).add(e.channelId));
    });
    // One VOD cycle of the engine's tick (never faster than MIN_TICK_MS), its last instant included (a
    // channel whose lead is a whole number of VODs plans exactly then): every channel plans once.
    const endMs = clock.now + 20_000;
    while (core.nextWakeMs() <= endMs) {
      clock.now = Math.max(core.nextWakeMs(), clock.now + MIN_TICK_MS);
      await Promise.all(await core.kickDue());
    }
    const counts = [...planningInSecond.values()].map((channels) => channels.size);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(CHANNELS);
    expect(counts.length).toBeGreaterThanOrEqual(PLAN_SPREAD_MS / 1000 - 1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(CHANNELS / 4);
  });

  it('announces an item start without a run when the log already reaches past the lead', async () => {
    const { core, clock, channels } = await loopChannels(1);
    const { playout } = channels[0]!;
    // The first wake extends the log; the next one is the start of the item that extension appended.
    clock.now = playout.nextWakeMs();
    await Promise.all(await core.kickDue());
    const startsAt = playout.tail.items.find((i) => i.startMs > clock.now)!.startMs;
    expect(playout.nextWakeMs()).toBe(startsAt);
    const advance = vi.spyOn(playout, 'advance');
    const started: number[] = [];
    core.events.subscribe((e) => e.type === 'item_started' && started.push(clock.now));

    clock.now = startsAt;
    const runs = await core.kickDue();
    await Promise.all(runs);

    expect(runs).toHaveLength(0);
    expect(started).toEqual([startsAt]);
    expect(advance).not.toHaveBeenCalled();
    expect(playout.nextWakeMs()).toBeGreaterThan(clock.now);
  });

  it('plans its batch past its lead in one run once on air, but only to its lead when it starts', async () => {
    const { core, clock, channels } = await loopChannels(1);
    const { playout } = channels[0]!;
    const aheadAtStartMs = logEndMs(playout.tail.items) - clock.now;
    const itemMs = playout.tail.last!.durationMs;
    const { appended, runs, leadMs } = await wakeUntilItAppends(core, clock, playout);

    const batchMs = planBatchMs(playout.channel.id);
    expect(itemMs).toBeLessThanOrEqual(PLAN_BATCH_MS);
    expect(batchMs).toBeGreaterThanOrEqual(PLAN_BATCH_MS);
    expect(aheadAtStartMs).toBeLessThanOrEqual(leadMs + itemMs);
    expect(runs).toBe(1);
    expect(appended).toBeGreaterThan(1);
    expect(logEndMs(playout.tail.items) - clock.now).toBeGreaterThan(leadMs + batchMs);
  });

  it('plans only to its lead when its content may change at short notice (a schedule channel)', async () => {
    const { core, clock, channels } = await loopChannels(1, { changesAhead: true });
    const { playout } = channels[0]!;
    const itemMs = playout.tail.last!.durationMs;
    const { appended, leadMs } = await wakeUntilItAppends(core, clock, playout);
    expect(appended).toBe(1);
    expect(logEndMs(playout.tail.items) - clock.now).toBeLessThanOrEqual(leadMs + itemMs);
  });

  it('gives channels batches of different lengths, so that channels which planned together plan apart later', () => {
    const batches = new Set(Array.from({ length: 100 }, (_, n) => planBatchMs(`c${n}`)));
    expect(batches.size).toBeGreaterThan(50);
    for (const ms of batches) {
      expect(ms).toBeGreaterThanOrEqual(PLAN_BATCH_MS);
      expect(ms).toBeLessThan(2 * PLAN_BATCH_MS);
    }
  });

  it('does useful work at every wake of a channel: its next wake is always later than the clock', async () => {
    const { core, clock, channels } = await loopChannels(1);
    const { playout } = channels[0]!;
    let appended = 0;
    let started = 0;
    core.events.subscribe((e) => {
      if (e.type === 'item_appended') appended++;
      if (e.type === 'item_started') started++;
    });
    const endMs = clock.now + 600_000;
    let wakes = 0;
    while (playout.nextWakeMs() < endMs) {
      // Exactly at the wake time: the extension that woke it must happen now, not one tick later.
      clock.now = playout.nextWakeMs();
      await playout.advance();
      wakes++;
      expect(playout.nextWakeMs()).toBeGreaterThan(clock.now);
    }
    // Every wake either appended the next item or announced one that started.
    expect(appended).toBeGreaterThanOrEqual(25);
    expect(wakes).toBeLessThanOrEqual(appended + started);
  });
});

describe('a task loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs again at once when it was poked during a run, instead of sleeping its whole delay', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let loop: TaskLoop | undefined;
    loop = new TaskLoop(async () => {
      runs++;
      if (runs === 1) await Promise.resolve().then(() => loop?.poke());
      return 60_000;
    }, 60_000);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    // Not poked during the second run: it sleeps the delay it returned.
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toBe(2);
    loop.stop();
  });
});

describe('the tick’s sleep', () => {
  const never = () => {
    throw new Error('the adaptive ceiling was read');
  };

  it('is never shorter than MIN_TICK_MS, so channels due a few milliseconds apart share a tick', () => {
    expect(tickSleepMs(1, undefined, never)).toBe(MIN_TICK_MS);
    expect(tickSleepMs(-50, undefined, never)).toBe(MIN_TICK_MS);
    expect(tickSleepMs(1, 10_000, never)).toBe(MIN_TICK_MS);
  });

  it('lasts until the earliest wake when that is further, without reading the adaptive ceiling below its least value', () => {
    expect(tickSleepMs(750, undefined, never)).toBe(750);
    expect(tickSleepMs(MIN_ADAPTIVE_TICK_CEILING_MS, undefined, never)).toBe(MIN_ADAPTIVE_TICK_CEILING_MS);
    expect(tickSleepMs(2500, undefined, () => 3000)).toBe(2500);
  });

  it('never lasts longer than the ceiling: maxTickInterval when set, else the adaptive one', () => {
    expect(tickSleepMs(60_000, 5000, never)).toBe(5000);
    expect(tickSleepMs(Number.POSITIVE_INFINITY, 5000, never)).toBe(5000);
    expect(tickSleepMs(60_000, undefined, () => 3000)).toBe(3000);
    expect(tickSleepMs(Number.POSITIVE_INFINITY, undefined, () => 11_000)).toBe(11_000);
  });
});
