/**
 * The channel table's change stamp on DynamoDB Local: every write the engine fleet must see moves it,
 * in the same transaction as the write; a refused write does not. The engine's table manager lists
 * the channels only when it moved, and names the channels whose live events a list changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../core/aws';
import { tableName, tables } from '../../core/resources';
import { ChannelTableManager } from '../../engine-container/host/channel-table-manager';
import { channelId } from '../../functions/channel/channel-id';
import type { Channel } from '../../functions/channel/model';
import { type ChannelStore, dynamoChannelStore } from '../../functions/channel/stores/channel-store';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';

let cloud: LocalCloud;
let store: ChannelStore;

beforeAll(async () => {
  cloud = await startTestCloud();
  store = dynamoChannelStore(documentClient(), tableName(tables.channels));
});
afterAll(async () => {
  await cloud?.stop();
});

const channel = (name: string): Channel => ({
  id: channelId('stamp', name),
  tenant: 'stamp',
  name,
  type: 'Loop',
  url: 'https://cdn.example/vod/master.m3u8',
  createdAt: 0,
});
const event = {
  id: 'ev-1',
  url: 'https://live.example/master.m3u8',
  start_time: 0,
  end_time: 1000,
  start: '1970-01-01T00:00:00.000Z',
  end: '1970-01-01T00:00:01.000Z',
};

describe('the channel table’s change stamp', () => {
  it('moves with a create, a live event added and removed, and a delete; not with a refused create', async () => {
    const seen = [await store.changeStamp()];
    const step = async (write: () => Promise<unknown>) => {
      await write();
      seen.push(await store.changeStamp());
    };
    await step(() => store.create(channel('a'), 10));
    await step(() => store.addEvent('stamp', 'a', event, 5));
    await step(() => store.removeEvent('stamp', 'a', 0, 'ev-1'));
    await step(() => store.remove('stamp', 'a'));
    expect(new Set(seen).size).toBe(seen.length);
    const before = await store.changeStamp();
    await store.create(channel('b'), 10);
    const after = await store.changeStamp();
    expect(await store.create(channel('b'), 10)).toEqual({ ok: false, reason: 'name_taken' });
    expect(await store.addEvent('other', 'b', event, 5)).toBe(false);
    expect(await store.changeStamp()).toBe(after);
    expect(after).toBeGreaterThan(before);
  });

  it('is never listed as a channel', async () => {
    expect((await store.listAll()).map((c) => c.name)).not.toContain(undefined);
  });

  it('lets the engine’s table manager list only when it moved', async () => {
    let lists = 0;
    const counting = {
      changeStamp: () => store.changeStamp(),
      listAll: async () => {
        lists++;
        return store.listAll();
      },
    };
    const manager = new ChannelTableManager(counting, 60_000);
    await manager.refresh();
    await manager.refresh();
    await manager.refresh();
    // The first list, and one more an interval later (the byKind index may lag the stamp).
    expect(lists).toBe(2);
    await store.create(channel('c'), 10);
    await manager.refresh();
    expect(lists).toBe(3);
    expect(manager.channel('c')).toBeDefined();
  });

  it('lets the engine’s table manager name the channels whose live events a list changed, once each', async () => {
    const manager = new ChannelTableManager(store, 60_000);
    await store.create(channel('d'), 10);
    await store.create(channel('e'), 10);
    await manager.refresh();
    manager.takeChangedChannels();
    await store.addEvent('stamp', 'd', event, 5);
    await manager.refresh();
    expect([...manager.takeChangedChannels()]).toEqual(['d']);
    await manager.refresh();
    expect([...manager.takeChangedChannels()]).toEqual([]);
    await store.removeEvent('stamp', 'd', 0, 'ev-1');
    await manager.refresh();
    expect([...manager.takeChangedChannels()]).toEqual(['d']);
    expect(await manager.getSchedule('d')).toEqual([]);
  });
});
