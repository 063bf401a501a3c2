/**
 * What the engine polls every few seconds: the channel list (channelRefreshIntervalMs) and every
 * channel's schedule (scheduleRefreshIntervalMs). While nothing changed, the host's composite of
 * sources answers the same list, and the engine follows a list of the same channel objects without
 * reading any of its channels (at 10,000 channels, each poll read every channel's objects, untouched
 * since the last poll: a fifth of a second on a cold host). Schedules are asked of the channels the
 * managers say changed, of channels added since and of those whose ask failed; of every channel when a
 * manager cannot say (engine-container/src/schedule-poll.ts).
 */
import { describe, expect, it } from 'vitest';
import { CompositeSources } from '../../engine-container/host/composite';
import type { Channel, IAssetManager, ScheduleEvent } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';

const assets: IAssetManager = { getNextVod: async () => ({ id: 'x', title: 'x', uri: 'https://o/x.m3u8' }) };
const channel = (id: string): Channel => ({ id, name: id });

/** A channel whose every property read is counted. */
function watched(id: string, reads: { n: number }): Channel {
  return new Proxy(channel(id), {
    get(target, key, receiver) {
      reads.n++;
      return Reflect.get(target, key, receiver);
    },
  });
}

/** A source answering whatever list it holds now (a new array only when it changes, as the hosts' do). */
function source(name: string, initial: Channel[]) {
  const s = { list: initial as Channel[] | Error };
  return {
    s,
    source: {
      name,
      assets,
      channels: {
        getChannels: () => {
          if (s.list instanceof Error) throw s.list;
          return s.list;
        },
      },
    },
  };
}

describe("the host's channel sources, polled", () => {
  it('answer the same list while every source answers its same list', async () => {
    const a = source('a', [channel('a1'), channel('a2')]);
    const b = source('b', [channel('b1')]);
    const composite = new CompositeSources([a.source, b.source]);
    const first = await composite.getChannels();
    expect(first.map((c) => c.id)).toEqual(['a1', 'a2', 'b1']);
    expect(await composite.getChannels()).toBe(first);
  });

  it('answer a new list once a source answers another, and keep a failed source’s channels', async () => {
    const a = source('a', [channel('a1')]);
    const b = source('b', [channel('b1')]);
    const composite = new CompositeSources([a.source, b.source]);
    const first = await composite.getChannels();
    b.s.list = [channel('b1'), channel('b2')];
    const second = await composite.getChannels();
    expect(second).not.toBe(first);
    expect(second.map((c) => c.id)).toEqual(['a1', 'b1', 'b2']);
    a.s.list = new Error('table unreachable');
    expect(await composite.getChannels()).toBe(second);
  });
});

describe("the host's asset sources, telling which channels changed", () => {
  const reporting = (name: string, taken: Iterable<string> | undefined) => ({
    name,
    channels: { getChannels: () => [] },
    assets: { ...assets, contentChangedFrom: async () => undefined, takeChangedChannels: () => taken },
  });

  it('name the channels each source that reports changes names; one that reports none is not asked', () => {
    const silent = { name: 'loops', channels: { getChannels: () => [] }, assets };
    const composite = new CompositeSources([silent, reporting('a', ['a1']), reporting('b', new Set(['b1']))]);
    expect([...(composite.takeChangedChannels() ?? [])]).toEqual(['a1', 'b1']);
  });

  it('cannot say when a source that reports changes cannot say which channels', () => {
    const composite = new CompositeSources([reporting('a', ['a1']), reporting('b', undefined)]);
    expect(composite.takeChangedChannels()).toBeUndefined();
  });
});

describe("the engine following its channel manager's list", () => {
  function engineCore() {
    const world = fakeWorld();
    return makeCore(new ScriptedAssetManager(() => vodResponse(world.a)), { fetch: world.origin.fetch }).core;
  }

  it('reads none of the channels of a list of the same channel objects as the last one', () => {
    const core = engineCore();
    const reads = { n: 0 };
    const list = [watched('c1', reads), watched('c2', reads)];
    core.syncChannels(list);
    expect(core.channelIds).toEqual(['c1', 'c2']);
    reads.n = 0;
    core.syncChannels([...list]);
    expect(reads.n).toBe(0);
  });

  it('adds a channel pushed into the same array, and removes one taken out of it', () => {
    const core = engineCore();
    const list = [channel('c1')];
    core.syncChannels(list);
    list.push(channel('c2'));
    core.syncChannels(list);
    expect(core.channelIds).toEqual(['c1', 'c2']);
    list.shift();
    core.syncChannels(list);
    expect(core.channelIds).toEqual(['c2']);
  });

  it('updates a channel whose object was replaced under the same id', () => {
    const core = engineCore();
    core.syncChannels([channel('c1')]);
    const renamed = { id: 'c1', name: 'renamed' };
    core.syncChannels([renamed]);
    expect(core.channel('c1')?.playout.channel).toBe(renamed);
  });
});

describe("the engine polling its channels' schedules", () => {
  const live = (id: string): ScheduleEvent => ({
    eventId: id,
    assetId: id,
    title: 'live',
    type: 1,
    start_time: Date.UTC(2025, 0, 1, 1),
    end_time: Date.UTC(2025, 0, 1, 2),
    uri: 'https://o/live.m3u8',
  });

  function engineCore(
    schedules: Map<string, ScheduleEvent[] | Error>,
    takeChangedChannels?: () => Iterable<string> | undefined,
  ) {
    const world = fakeWorld();
    const am = new ScriptedAssetManager(() => vodResponse(world.a));
    const asked: string[] = [];
    const getSchedule = async (id: string) => {
      asked.push(id);
      const events = schedules.get(id) ?? [];
      if (events instanceof Error) throw events;
      return events;
    };
    const { core } = makeCore(am, {
      fetch: world.origin.fetch,
      streamSwitchManager: { getSchedule, takeChangedChannels },
    });
    /** Polls once; resolves with the channels asked, in order. */
    const poll = async () => {
      asked.length = 0;
      await core.refreshSchedules();
      return [...asked].sort();
    };
    return { core, poll };
  }

  /** A manager's changes, told once each. */
  function changes() {
    const pending = new Set<string>();
    const take = () => {
      const taken = [...pending];
      pending.clear();
      return taken;
    };
    return { pending, take };
  }

  it('tells a channel its events, and tells it again once they are gone', async () => {
    const schedules = new Map([['c1', [live('e1')]]]);
    const { core } = engineCore(schedules);
    core.syncChannels([channel('c1'), channel('c2')]);
    expect(await core.refreshSchedules()).toBe(1);
    expect(await core.refreshSchedules()).toBe(0);
    schedules.delete('c1');
    expect(await core.refreshSchedules()).toBe(1);
    expect(await core.refreshSchedules()).toBe(0);
  });

  it('asks only the channels its manager says changed, and the channels added since', async () => {
    const changed = changes();
    const { core, poll } = engineCore(new Map(), changed.take);
    core.syncChannels([channel('c1'), channel('c2'), channel('c3')]);
    expect(await poll()).toEqual(['c1', 'c2', 'c3']);
    expect(await poll()).toEqual([]);
    changed.pending.add('c2').add('not-a-channel');
    core.syncChannels([channel('c1'), channel('c2'), channel('c3'), channel('c4')]);
    expect(await poll()).toEqual(['c2', 'c4']);
    expect(await poll()).toEqual([]);
  });

  it('asks a channel whose ask failed again at the next poll, though its manager tells nothing more', async () => {
    const changed = changes();
    const schedules = new Map<string, ScheduleEvent[] | Error>([['c1', new Error('timed out')]]);
    const { core, poll } = engineCore(schedules, changed.take);
    core.syncChannels([channel('c1'), channel('c2')]);
    expect(await poll()).toEqual(['c1', 'c2']);
    schedules.set('c1', [live('e1')]);
    expect(await poll()).toEqual(['c1']);
    expect(core.channel('c1')?.playout.setSchedule([live('e1')])).toBe(false);
    expect(await poll()).toEqual([]);
  });

  it('asks every channel at every poll when its manager cannot say which changed', async () => {
    const { core, poll } = engineCore(new Map(), () => undefined);
    core.syncChannels([channel('c1'), channel('c2')]);
    expect(await poll()).toEqual(['c1', 'c2']);
    expect(await poll()).toEqual(['c1', 'c2']);
  });
});
