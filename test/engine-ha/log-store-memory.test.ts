/** The in-memory store keeps the playout log store contract, and bounds what it keeps for start-over. */
import { describe, expect, it } from 'vitest';
import { InMemoryPlayoutLogStore, MEMORY_RETAINED_ITEMS } from '../../engine-container/src/playout/log-store';
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
});
