import { describe, expect, it } from 'vitest';
import type { Channel } from '../../functions/channel/model';
import { sizeFleet } from '../../functions/fleet/fleet-dispatcher';
import { LoggingFleetSizer } from '../../functions/fleet/fleet-sizer';

const policy = { stage: 'prod' as const, channelsPerTask: 2, maxTasks: 20 };
const channels = (n: number) => ({ listAll: async () => Array.from({ length: n }, () => ({}) as Channel) });
const scheduleChannels = (n: number) => ({ count: async () => n });

describe('fleet dispatcher', () => {
  it('keeps the engine running while only schedule-service channels exist', async () => {
    const sizer = new LoggingFleetSizer();
    await sizeFleet({ channels: channels(0), scheduleChannels: scheduleChannels(1), sizer, policy }, 't');
    expect(sizer.decisions).toEqual([2]);
  });

  it('sizes the fleet for channel-service and schedule-service channels together', async () => {
    const sizer = new LoggingFleetSizer();
    await sizeFleet({ channels: channels(3), scheduleChannels: scheduleChannels(4), sizer, policy }, 't');
    expect(sizer.decisions).toEqual([4]);
  });

  it('stops the engine when neither service has a channel', async () => {
    const sizer = new LoggingFleetSizer();
    await sizeFleet({ channels: channels(0), scheduleChannels: scheduleChannels(0), sizer, policy }, 't');
    expect(sizer.decisions).toEqual([0]);
  });
});
