/**
 * A schedule channel on a fake clock: the real schedule plug-in (watch, channel, asset and stream
 * switch managers) over a scripted schedule API, and the engine core driven as the engine's loops drive
 * it: the channel list every channelRefreshMs, the schedules every scheduleRefreshMs, and the tick's
 * kick of every channel that is due, every STEP_MS. With `engines`, several engines (each with its own
 * plug-in) share one playout log, each polling a second later than the one before.
 */
import { createLogger } from '../../../core/logger';
import { createSchedulePlugin } from '../../../engine-container/host/schedule/index';
import type { ScheduleEntry, ScheduleSource } from '../../../engine-container/host/schedule/schedule-client';
import { itemEndMs, type PlayoutItem } from '../../../engine-container/src/playout/item';
import { cutsOf, isVoided } from '../../../engine-container/src/playout/item-range';
import { InMemoryPlayoutLogStore } from '../../../engine-container/src/playout/log-store';
import { playbackChannelId } from '../../../functions/schedule/playback-id';
import { fakeWorld, makeCore } from '../../engine/helpers/engine-fixtures';
import { fakeLiveSource } from '../../engine/helpers/fake-live-source';

export const T0 = Date.UTC(2030, 4, 1, 18);
const STEP_MS = 500;
const TENANT = 'tv.example';

/** An item as it plays: not voided by a later cut, and ending where the next one cuts it. */
export type Aired = PlayoutItem & { endMs: number };

export function scheduleSystem({ channelRefreshMs = 2000, scheduleRefreshMs = 5000, engines = 1 } = {}) {
  const world = fakeWorld();
  const clock = { now: T0 };
  const api = { stamp: 1, scheduleVersion: 1, liveVersion: 1, entries: [] as ScheduleEntry[] };
  const byStart = (a: ScheduleEntry, b: ScheduleEntry) => a.start_time - b.start_time;
  const source: ScheduleSource = {
    changes: async () => api.stamp,
    listChannels: async () => [
      {
        id: 'news',
        tenant: TENANT,
        title: 'News',
        scheduleVersion: api.scheduleVersion,
        liveVersion: api.liveVersion,
      },
    ],
    schedule: async (_id, fromMs, toMs) =>
      api.entries.filter((e) => e.end_time > fromMs && e.start_time < toMs).sort(byStart),
    liveEntries: async (_id, fromMs) =>
      api.entries.filter((e) => e.type === 'LIVE' && e.end_time > fromMs).sort(byStart),
  };
  const log = createLogger({ level: 'silent' });
  const logStore = new InMemoryPlayoutLogStore();
  const fleet = Array.from({ length: engines }, () => {
    const plugin = createSchedulePlugin({ source, clock: () => clock.now, log });
    const { core } = makeCore(plugin.assetManager, {
      sharedClock: clock,
      logStore,
      fetch: world.origin.fetch,
      defaultSlateUri: world.slate,
      streamSwitchManager: plugin.switchManager,
    });
    return { plugin, core };
  });
  const { core, plugin } = fleet[0]!;
  const live = fakeLiveSource(world.origin, clock);
  const channelId = playbackChannelId(TENANT, 'news');
  const refreshes = { channels: [] as number[], schedules: [] as number[] };

  /** Adds an entry now, as POST /channels/{id}/schedule does (the versions and the stamp move). */
  function add(id: string, type: 'VOD' | 'LIVE', startMs: number, endMs: number): ScheduleEntry {
    const entry: ScheduleEntry = {
      id,
      channelId: 'news',
      title: id,
      start_time: startMs,
      end_time: endMs,
      start: new Date(startMs).toISOString(),
      end: new Date(endMs).toISOString(),
      url: type === 'VOD' ? world.a : live.uri,
      duration: (endMs - startMs) / 1000,
      type,
    };
    api.entries.push(entry);
    api.stamp++;
    if (type === 'VOD') api.scheduleVersion++;
    else api.liveVersion++;
    return entry;
  }

  /** Deletes an entry now, as DELETE /channels/{id}/schedule/{entryId} does. */
  function remove(id: string): void {
    const entry = api.entries.find((e) => e.id === id)!;
    api.entries = api.entries.filter((e) => e !== entry);
    api.stamp++;
    if (entry.type === 'VOD') api.scheduleVersion++;
    else api.liveVersion++;
  }

  async function run(untilMs: number): Promise<void> {
    for (; clock.now < untilMs; clock.now += STEP_MS) {
      // One engine after the other, first each in turn (each holds the writer lease at times); their
      // runs never overlap (a waiting engine would wait in real time).
      const turn = (clock.now / STEP_MS) % fleet.length;
      for (let k = 0; k < fleet.length; k++) {
        const n = (k + turn) % fleet.length;
        const engine = fleet[n]!;
        const at = clock.now - n * 1000;
        if (at % channelRefreshMs === 0) {
          engine.core.syncChannels(await engine.plugin.channelManager.getChannels());
          if (n === 0) refreshes.channels.push(clock.now);
        }
        if (at % scheduleRefreshMs === 0) {
          await engine.core.refreshSchedules();
          if (n === 0) refreshes.schedules.push(clock.now);
        }
        await Promise.all(await engine.core.kickDue());
      }
    }
  }

  /** When the first engine's loops had read a change made at atMs: a channel refresh, then a schedule one. */
  function learnedAt(atMs: number): number {
    const listed = refreshes.channels.find((t) => t >= atMs)!;
    return refreshes.schedules.find((t) => t >= listed)!;
  }

  /** The channel's whole log as it airs, from the store (the engine's own view is trimmed). */
  async function aired(): Promise<Aired[]> {
    const items = await core.store.read(channelId);
    const cuts = cutsOf(items);
    return items.flatMap((item, k) =>
      isVoided(item, cuts[k]!) ? [] : [{ ...item, endMs: Math.min(itemEndMs(item), cuts[k]!) }],
    );
  }

  return { world, clock, core, plugin, live, channelId, add, remove, run, learnedAt, aired };
}
