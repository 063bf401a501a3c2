/**
 * An engine starting a channel reads only the tail of its shared log (channel/log-tail.ts): the newest
 * items back to the first its live window can show and the item before it, not the day a store retains
 * for start-over. It serves the live playlist the engine that played the channel serves (the same media
 * sequence: it never goes back), and its as-run recorder writes only what ended within that tail.
 */
import { describe, expect, it } from 'vitest';
import type { AsRunEntry } from '../../core/asrun/asrun-entry';
import type { AsRunStore, ChannelEntry } from '../../core/asrun/asrun-store';
import { createLogger } from '../../core/logger';
import { AsRunRecorder } from '../../engine-container/host/asrun-recorder';
import type { Engine } from '../../engine-container/src/index';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { HOUR, playedChannel } from '../timeshift/support/played-core';

/** Keeps every item (as Redis or DynamoDB keep a day), counting the items its reads return. */
class CountedStore extends InMemoryPlayoutLogStore {
  itemsRead = 0;

  override async read(channelId: string, fromSeq?: number, toSeq?: number): Promise<PlayoutItem[]> {
    const items = await super.read(channelId, fromSeq, toSeq);
    this.itemsRead += items.length;
    return items;
  }

  override async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    const items = await super.readLast(channelId, count);
    this.itemsRead += items.length;
    return items;
  }

  override async trim(): Promise<void> {}
}

/** A channel played for a day by one engine, then started by another on the same log. */
async function coldStartAfterADay() {
  const clock = { now: Date.UTC(2025, 0, 1) };
  const store = new CountedStore(() => clock.now, 25 * HOUR);
  const warm = await playedChannel(24, 0, { clock, logStore: store });
  const logged = (await store.read('ch')).length;
  store.itemsRead = 0;
  const { world } = warm;
  const cold = makeCore(new ScriptedAssetManager(() => vodResponse(world.a)), {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    sharedClock: clock,
    logStore: store,
  });
  return { clock, store, warm, cold, logged };
}

// A day played on a fake clock takes a few seconds on a loaded machine.
describe('an engine starting a channel whose shared log holds a day', { timeout: 60_000 }, () => {
  it('reads only the tail its live window needs, and serves the same live playlist as the engine that played it', async () => {
    const { store, warm, cold, logged } = await coldStartAfterADay();
    const runtime = cold.core.upsertChannel({ id: 'ch', name: 'ch' });
    await runtime.playout.advance();
    console.info(`cold start: ${store.itemsRead} of ${logged} items read`);
    // 20 s items: two 60 s windows and three target durations are 7 items; the first page reads 16.
    expect(logged).toBeGreaterThan(4000);
    expect(store.itemsRead).toBeLessThanOrEqual(32);
    expect(runtime.playout.tail.items.length).toBeLessThanOrEqual(16);
    for (const key of ['v0'])
      expect(await runtime.playlists.mediaPlaylist(key)).toBe(
        await warm.runtime.playlists.mediaPlaylist(key),
      );
  });

  it('writes to the as-run log only the entries that ended within that tail', async () => {
    const { clock, cold, logged } = await coldStartAfterADay();
    const put: AsRunEntry[] = [];
    const asRun = {
      put: async (entries: readonly ChannelEntry[]) => void put.push(...entries.map((e) => e.entry)),
    };
    // The recorder reads the engine's core, events and clock only.
    const engine = {
      core: cold.core,
      events: cold.core.events,
      config: cold.core.config,
    } as unknown as Engine;
    const recorder = new AsRunRecorder(
      engine,
      asRun as unknown as AsRunStore,
      createLogger({ component: 'test' }),
    );
    recorder.start();
    const runtime = cold.core.upsertChannel({ id: 'ch', name: 'ch' });
    await runtime.playout.advance();
    await recorder.stop();
    console.info(`as-run entries written at start: ${put.length} (the log holds ${logged} items)`);
    expect(put.length).toBeGreaterThan(0);
    expect(put.length).toBeLessThanOrEqual(16);
    // At most the first page read (16 items of 20 s), never the day.
    for (const entry of put) expect(entry.endMs).toBeGreaterThan(clock.now - 16 * 20_000);
  });
});
