import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger';
import { createSchedulePlugin } from '../../engine-container/host/schedule/index';
import type {
  ScheduleChannel,
  ScheduleEntry,
  ScheduleSource,
} from '../../engine-container/host/schedule/schedule-client';
import { ScheduleWatch } from '../../engine-container/host/schedule/schedule-watch';
import { ScheduleSwitchManager } from '../../engine-container/host/schedule/switch-manager';
import { playbackChannelId } from '../../functions/schedule/playback-id';

const t0 = Date.UTC(2030, 4, 1, 18);
const entry = (id: string, type: 'LIVE' | 'VOD'): ScheduleEntry => ({
  id,
  channelId: 'sport',
  title: id,
  start_time: t0,
  end_time: t0 + 60_000,
  start: new Date(t0).toISOString(),
  end: new Date(t0 + 60_000).toISOString(),
  url: `https://cdn.example/${id}.m3u8`,
  duration: 60,
  type,
});

/** A schedule API as the plug-in sees it: a stamp, channels with versions, and a count of each call. */
function fakeSource(channels: ScheduleChannel[]) {
  const state = { stamp: 1, channels, calls: { changes: 0, listChannels: 0, liveEntries: [] as unknown[] } };
  const source: ScheduleSource = {
    changes: async () => {
      state.calls.changes++;
      return state.stamp;
    },
    listChannels: async () => {
      state.calls.listChannels++;
      return state.channels;
    },
    schedule: async () => [],
    liveEntries: async (...args) => {
      state.calls.liveEntries.push(args);
      return [entry('match', 'LIVE')];
    },
  };
  return { state, source };
}

const sport = playbackChannelId('tv.example', 'sport');

describe('the schedule plug-in stream switch manager', () => {
  it("gives a schedule channel's LIVE entries as LIVE events of its tenant's channel", async () => {
    const { state, source } = fakeSource([
      { id: 'sport', tenant: 'tv.example', title: 'Sport', scheduleVersion: 1, liveVersion: 1 },
    ]);
    const watch = new ScheduleWatch({ source, log: createLogger(), clock: () => t0 });
    await watch.refresh();
    expect(await new ScheduleSwitchManager(watch).getSchedule(sport)).toEqual([
      {
        eventId: 'match',
        assetId: 'match',
        title: 'match',
        type: 1,
        start_time: t0,
        end_time: t0 + 60_000,
        uri: 'https://cdn.example/match.m3u8',
      },
    ]);
    expect(state.calls.liveEntries).toEqual([['sport', t0 - 12 * 3600_000, 'tv.example']]);
  });

  it('reads nothing but the stamp while it stands still, and the LIVE entries again only when their version moved', async () => {
    const { state, source } = fakeSource([
      { id: 'sport', tenant: 'tv.example', title: 'Sport', scheduleVersion: 1, liveVersion: 1 },
      { id: 'news', tenant: 'tv.example', title: 'News', scheduleVersion: 4, liveVersion: 0 },
    ]);
    const watch = new ScheduleWatch({ source, log: createLogger(), clock: () => t0 });
    for (let i = 0; i < 5; i++) await watch.refresh();
    expect(state.calls).toMatchObject({ changes: 5, listChannels: 1 });
    expect(state.calls.liveEntries).toHaveLength(1);

    state.stamp = 2;
    state.channels = state.channels.map((c) => (c.id === 'news' ? { ...c, scheduleVersion: 5 } : c));
    await watch.refresh();
    expect(state.calls.listChannels).toBe(2);
    expect(state.calls.liveEntries).toHaveLength(1);
    expect(watch.scheduleVersion(playbackChannelId('tv.example', 'news'))).toBe(5);

    state.stamp = 3;
    state.channels = state.channels.map((c) => (c.id === 'sport' ? { ...c, liveVersion: 2 } : c));
    await watch.refresh();
    expect(state.calls.liveEntries).toHaveLength(2);
  });

  it('lists the channels again after fullListMs even when the stamp stood still', async () => {
    const clock = { now: t0 };
    const { state, source } = fakeSource([]);
    const watch = new ScheduleWatch({
      source,
      log: createLogger(),
      clock: () => clock.now,
      fullListMs: 60_000,
    });
    await watch.refresh();
    clock.now += 59_000;
    await watch.refresh();
    expect(state.calls.listChannels).toBe(1);
    clock.now += 1000;
    await watch.refresh();
    expect(state.calls.listChannels).toBe(2);
  });

  it('reads once the LIVE entries of a channel listed without versions (written before they were kept)', async () => {
    const { state, source } = fakeSource([{ id: 'sport', tenant: 'tv.example', title: 'Sport' }]);
    const watch = new ScheduleWatch({ source, log: createLogger(), clock: () => t0, fullListMs: 0 });
    for (let i = 0; i < 3; i++) await watch.refresh();
    expect(state.calls.listChannels).toBe(3);
    expect(state.calls.liveEntries).toHaveLength(1);
  });

  it('lists the channels on every refresh while the stamp cannot be read (a service without it)', async () => {
    const { state, source } = fakeSource([]);
    const watch = new ScheduleWatch({
      source: { ...source, changes: () => Promise.reject(new Error('HTTP 404')) },
      log: createLogger(),
      clock: () => t0,
    });
    for (let i = 0; i < 3; i++) await watch.refresh();
    expect(state.calls.listChannels).toBe(3);
  });

  it('has no events for a channel of another source', async () => {
    const { source } = fakeSource([]);
    const watch = new ScheduleWatch({ source, log: createLogger() });
    expect(await new ScheduleSwitchManager(watch).getSchedule('acme.news')).toEqual([]);
  });
});

describe('the schedule plug-in telling the engine which channels to ask', () => {
  const news = playbackChannelId('tv.example', 'news');
  const versions = (sport: [number, number], newsVersions: [number, number]): ScheduleChannel[] => [
    { id: 'sport', tenant: 'tv.example', title: 'Sport', scheduleVersion: sport[0], liveVersion: sport[1] },
    {
      id: 'news',
      tenant: 'tv.example',
      title: 'News',
      scheduleVersion: newsVersions[0],
      liveVersion: newsVersions[1],
    },
  ];

  it('names the channels whose LIVE entries a list changed, once each', async () => {
    const { state, source } = fakeSource(versions([1, 1], [1, 0]));
    const plugin = createSchedulePlugin({ source, log: createLogger(), clock: () => t0 });
    await plugin.watch.refresh();
    expect([...plugin.switchManager.takeChangedChannels()]).toEqual([sport]);
    expect([...plugin.switchManager.takeChangedChannels()]).toEqual([]);
    state.stamp++;
    state.channels = versions([1, 1], [2, 0]);
    await plugin.watch.refresh();
    expect([...plugin.switchManager.takeChangedChannels()]).toEqual([]);
    state.stamp++;
    state.channels = versions([1, 0], [2, 0]);
    await plugin.watch.refresh();
    expect([...plugin.switchManager.takeChangedChannels()]).toEqual([sport]);
    expect(await plugin.switchManager.getSchedule(sport)).toEqual([]);
  });

  it('names for contentChangedFrom a channel whose schedule version moved under a window it read, once', async () => {
    const { state, source } = fakeSource(versions([1, 0], [1, 0]));
    const plugin = createSchedulePlugin({ source, log: createLogger(), clock: () => t0 });
    await plugin.watch.refresh();
    await plugin.assetManager.getNextVod({ sessionId: news, playlistId: news });
    expect([...(plugin.assetManager.takeChangedChannels() ?? [])]).toEqual([news]);
    expect([...(plugin.assetManager.takeChangedChannels() ?? [])]).toEqual([]);
    state.stamp++;
    state.channels = versions([2, 0], [2, 0]);
    await plugin.watch.refresh();
    // Sport's version moved too, but this manager read no window of it: nothing it planned can change.
    expect([...(plugin.assetManager.takeChangedChannels() ?? [])]).toEqual([news]);
    expect([...(plugin.assetManager.takeChangedChannels() ?? [])]).toEqual([]);
  });
});
