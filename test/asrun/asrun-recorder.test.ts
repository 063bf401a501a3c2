/**
 * The engine host's as-run writer (engine-container/host/asrun-recorder.ts) on the real engine core and
 * a fake clock: each channel's ended items are written once, and a write carries the entries of every
 * channel that started an item while the last write was in flight, not one write per channel.
 */
import { describe, expect, it } from 'vitest';
import type { AsRunStore, ChannelEntry } from '../../core/asrun/asrun-store';
import { createLogger } from '../../core/logger';
import { AsRunRecorder } from '../../engine-container/host/asrun-recorder';
import type { Engine } from '../../engine-container/src/index';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';

/** `channels` channels of world.a (20 s VODs) and a recorder writing to a store that keeps each write. */
function recordedChannels(channels: number) {
  const world = fakeWorld();
  const { core, clock } = makeCore(new ScriptedAssetManager(() => vodResponse(world.a)), {
    fetch: world.origin.fetch,
  });
  const writes: ChannelEntry[][] = [];
  /** While set, a write waits for it: the next item starts happen while a write is in flight. */
  const gate: { open?: Promise<void> } = {};
  const store = {
    put: async (entries: readonly ChannelEntry[]) => {
      writes.push([...entries]);
      await gate.open;
    },
  } as Pick<AsRunStore, 'put'> as AsRunStore;
  const engine = { core, events: core.events, config: core.config } as unknown as Engine;
  const recorder = new AsRunRecorder(engine, store, createLogger({ level: 'silent' }));
  recorder.start();
  for (let n = 0; n < channels; n++) core.upsertChannel({ id: `c${n}`, name: `c${n}` });
  const playUntil = async (untilMs: number) => {
    for (; clock.now < untilMs; clock.now += 1000) await Promise.all(await core.kickDue());
  };
  return { clock, writes, gate, recorder, playUntil };
}

describe('the as-run recorder', () => {
  it("writes each channel's ended items once", async () => {
    const { clock, writes, recorder, playUntil } = recordedChannels(5);
    await playUntil(clock.now + 130_000);
    await recorder.stop();
    const written = writes.flat().map((e) => `${e.channelId}@${e.entry.startMs}`);
    expect(new Set(written).size).toBe(written.length);
    for (let n = 0; n < 5; n++) {
      const starts = writes
        .flat()
        .filter((e) => e.channelId === `c${n}`)
        .map((e) => e.entry.startMs);
      // 20 s VODs, back to back: those the log began with before the clock, then 130 s of them.
      expect(starts.length).toBeGreaterThanOrEqual(6);
      expect(starts.slice(1).map((start, k) => start - starts[k]!)).toEqual(
        starts.slice(1).map(() => 20_000),
      );
    }
  });

  it('writes in one write the entries of every channel that started an item while a write was in flight', async () => {
    const { clock, writes, gate, recorder, playUntil } = recordedChannels(30);
    let release = () => {};
    gate.open = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The channels start together, each with the items its log begins with before the clock (ended).
    await playUntil(clock.now + 1000);
    release();
    await recorder.stop();
    // The first write (the first channel's) held the others back; the second carries the other 29.
    const channelsOf = (write: ChannelEntry[]) => new Set(write.map((e) => e.channelId)).size;
    expect(writes.map(channelsOf)).toEqual([1, 29]);
  });
});
