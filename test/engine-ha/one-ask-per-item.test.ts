/**
 * Several engines sharing one playout log ask the asset manager once per item between them: the
 * engine holding the channel's writer lease asks and appends, the others wait for its append.
 * In one process, with a shared fake clock (a day of a channel in seconds would not need leases to
 * expire; the failover cases run on real processes in failover.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';

function engines(
  count: number,
  store: InMemoryPlayoutLogStore,
  answer: () => ReturnType<typeof vodResponse>,
) {
  const world = fakeWorld();
  const clock = { now: Date.UTC(2025, 0, 1) };
  return Array.from({ length: count }, () => {
    const am = new ScriptedAssetManager(answer);
    const { core } = makeCore(am, { fetch: world.origin.fetch, logStore: store, sharedClock: clock });
    return { am, core, clock, world };
  });
}

describe('engines sharing one playout log', () => {
  it('ask the asset manager exactly once per item between them, and serve the same playlists', async () => {
    const world = fakeWorld();
    let asked = 0;
    const store = new InMemoryPlayoutLogStore();
    // A cursor: each answer is a new episode, so a second ask for one slot would skip an episode.
    const three = engines(3, store, () => vodResponse(world.a, { id: `ep-${asked++}` }));
    const clock = three[0]!.clock;
    const channels = three.map((e) => e.core.upsertChannel({ id: 'ch', name: 'ch' }));
    const appended: Array<{ seq: number; id: string }> = [];
    for (const { core } of three)
      core.events.subscribe((e) => {
        if (e.type === 'item_appended') appended.push(e.data as { seq: number; id: string });
      });
    for (const end = clock.now + 300_000; clock.now < end; clock.now += 2000) {
      await Promise.all(channels.map((c) => c.playout.advance()));
      const bodies = await Promise.all(channels.map((c) => c.playlists.mediaPlaylist('v0')));
      expect(new Set(bodies).size).toBe(1);
    }
    const calls = three.reduce((sum, e) => sum + e.am.requests.length, 0);
    expect(appended.length).toBeGreaterThanOrEqual(15);
    expect(calls).toBe(appended.length);
    // Every episode the cursor handed out is on air once, in order: none skipped, none twice.
    expect(appended.sort((x, y) => x.seq - y.seq).map((i) => i.id)).toEqual(
      appended.map((_, k) => `ep-${k}`),
    );
  }, 60_000);
});
