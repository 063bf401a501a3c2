import { describe, expect, it } from 'vitest';
import type { ScheduleEntry, ScheduleSource } from '../../engine-container/host/schedule/schedule-client';
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

describe('the schedule plug-in stream switch manager', () => {
  const asked: unknown[] = [];
  const source: ScheduleSource = {
    listChannels: async () => [],
    schedule: async (...args) => {
      asked.push(args);
      return [entry('film', 'VOD'), entry('match', 'LIVE')];
    },
  };
  const manager = new ScheduleSwitchManager(source, () => t0);

  it("gives a schedule channel's LIVE entries as LIVE events of its tenant's channel", async () => {
    const events = await manager.getSchedule(playbackChannelId('tv.example', 'sport'));
    expect(events).toEqual([
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
    expect(asked[0]).toEqual(['sport', t0 - 12 * 3600_000, t0 + 12 * 3600_000, 'tv.example']);
  });

  it('has no events for a channel of another source', async () => {
    expect(await manager.getSchedule('acme.news')).toEqual([]);
  });
});
