/**
 * The in-memory store keeps the playout log store contract, bounds what it keeps for start-over, and has
 * no leases when it is the engine's own (no other engine writes it).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  hasLeases,
  InMemoryPlayoutLogStore,
  MEMORY_RETAINED_ITEMS,
  MEMORY_RETAINED_ITEMS_TOTAL,
} from '../../engine-container/src/playout/log-store';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { item, logStoreContract } from './log-store-contract';

logStoreContract('in-memory store', () => new InMemoryPlayoutLogStore());

describe('the in-memory store kept for start-over', () => {
  const DAY_MS = 86_400_000;
  /** A store whose clock is just after `count` items of 10 s, retaining a day of them. */
  async function filled(count: number) {
    const now = item(count).startMs;
    const store = new InMemoryPlayoutLogStore(() => now, DAY_MS);
    for (let seq = 0; seq < count; seq++)
      expect(await store.append('c', item(seq), seq - 1)).toBe('appended');
    return store;
  }

  it('keeps the items that ended within the retention when trimmed', async () => {
    const store = await filled(100);
    await store.trim('c', 99);
    expect((await store.read('c')).length).toBe(100);
  });

  it(`keeps no more than ${MEMORY_RETAINED_ITEMS} items of a channel, however long the retention`, async () => {
    const store = await filled(MEMORY_RETAINED_ITEMS + 500);
    await store.trim('c', MEMORY_RETAINED_ITEMS + 499);
    const kept = await store.read('c');
    expect(kept.length).toBe(MEMORY_RETAINED_ITEMS);
    expect(kept[kept.length - 1]!.seq).toBe(MEMORY_RETAINED_ITEMS + 499);
  });

  it('never trims past what the caller keeps', async () => {
    const store = await filled(MEMORY_RETAINED_ITEMS + 500);
    await store.trim('c', 10);
    expect((await store.read('c'))[0]!.seq).toBe(10);
  });

  it("forgets a removed channel's log but its last item, and gives it no share of the budget", async () => {
    const store = await filled(MEMORY_RETAINED_ITEMS + 500);
    const channels = (2 * MEMORY_RETAINED_ITEMS_TOTAL) / MEMORY_RETAINED_ITEMS;
    for (let n = 1; n < channels; n++) await store.append(`other-${n}`, item(0), -1);
    for (let n = 1; n < channels; n++) store.forget(`other-${n}`);
    expect(await store.read('other-1')).toEqual([item(0)]);
    await store.trim('c', MEMORY_RETAINED_ITEMS + 499);
    expect((await store.read('c')).length).toBe(MEMORY_RETAINED_ITEMS);
    // Appended to again, a channel takes its share again.
    expect(await store.append('other-1', item(1), 0)).toBe('appended');
    store.forget('c');
    expect(await store.read('c')).toEqual([item(MEMORY_RETAINED_ITEMS + 499)]);
  });

  it('shares its start-over budget among its channels', async () => {
    const store = await filled(MEMORY_RETAINED_ITEMS + 500);
    // As many channels again as leave each a share of half MEMORY_RETAINED_ITEMS.
    const channels = (2 * MEMORY_RETAINED_ITEMS_TOTAL) / MEMORY_RETAINED_ITEMS;
    for (let n = 1; n < channels; n++) await store.append(`other-${n}`, item(0), -1);
    await store.trim('c', MEMORY_RETAINED_ITEMS + 499);
    expect((await store.read('c')).length).toBe(MEMORY_RETAINED_ITEMS / 2);
  });
});

describe("an engine's log store", () => {
  const am = () => {
    const world = fakeWorld();
    return { am: new ScriptedAssetManager(() => vodResponse(world.a)), fetch: world.origin.fetch };
  };

  it('has no leases when the engine keeps its own log in memory: no other engine writes it', () => {
    const { am: assets, fetch } = am();
    expect(hasLeases(makeCore(assets, { fetch }).core.store)).toBe(false);
  });

  it('is read once per channel when the engine keeps its own log: its own appends keep its view current', async () => {
    const { am: assets, fetch } = am();
    const { core, clock } = makeCore(assets, { fetch });
    const reads = vi.spyOn(core.store, 'read');
    const readLasts = vi.spyOn(core.store, 'readLast');
    const channel = core.upsertChannel({ id: 'c', name: 'c' });
    await core.advanceAll();
    const appendedBefore = channel.playout.tail.lastSeq;
    // Ten minutes of playout and requests: the log is extended many times over.
    for (const endMs = clock.now + 600_000; clock.now < endMs; ) {
      clock.now = Math.max(core.nextWakeMs(), clock.now + 1000);
      await Promise.all(await core.kickDue());
      await channel.playlists.mediaPlaylist('v0');
    }
    expect(channel.playout.tail.lastSeq - appendedBefore).toBeGreaterThan(20);
    expect(reads.mock.calls.length + readLasts.mock.calls.length).toBe(1);
  });

  it("appends nothing more for a removed channel's run in flight, and forgets its log but the last item", async () => {
    const world = fakeWorld();
    let [held, answer]: [boolean, (() => void) | undefined] = [false, undefined];
    const assets = new ScriptedAssetManager(async () => {
      // The channel's first items come at once; once held, an ask waits for the test.
      if (held) await new Promise<void>((resolve) => (answer = resolve));
      return vodResponse(world.a);
    });
    const { core, clock } = makeCore(assets, { fetch: world.origin.fetch });
    const channel = core.upsertChannel({ id: 'c', name: 'c' });
    await core.advanceAll();
    held = true;
    const last = channel.playout.tail.last!;
    clock.now = last.startMs + last.durationMs; // the log must be extended now
    const run = channel.playout.advance();
    await vi.waitFor(() => expect(answer).toBeDefined());
    const lastSeq = channel.playout.tail.lastSeq;
    core.removeChannel('c');
    answer!();
    await run;
    expect((await core.store.read('c')).map((i) => i.seq)).toEqual([lastSeq]);
  });

  it('keeps the leases of an in-memory store it is given, which other engines may share', () => {
    const { am: assets, fetch } = am();
    const logStore = new InMemoryPlayoutLogStore();
    expect(hasLeases(makeCore(assets, { fetch, logStore }).core.store)).toBe(true);
  });
});
