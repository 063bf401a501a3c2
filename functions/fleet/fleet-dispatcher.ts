/**
 * Consumes channel events (and a periodic tick) and sizes the engine fleet. Events only say "something
 * changed": the size is always recomputed from the channel tables, so lost, duplicated or reordered
 * events cannot skew it, and two runs at once both set the same size (no reserved concurrency needed).
 */
import type { ChannelStore } from '../channel/stores/channel-store';
import { desiredEngineTasks, type FleetPolicy } from './desired-tasks';
import type { FleetSizer } from './fleet-sizer';
import type { ScheduleChannelCount } from './schedule-channels';

export interface FleetDeps {
  channels: Pick<ChannelStore, 'listAll'>;
  /** Schedule-service channels, which the engine plays too. */
  scheduleChannels?: ScheduleChannelCount;
  sizer: FleetSizer;
  policy: FleetPolicy;
}

export async function sizeFleet(deps: FleetDeps, trigger: string): Promise<number> {
  const [channels, scheduleChannelCount] = await Promise.all([
    deps.channels.listAll(),
    deps.scheduleChannels?.count() ?? 0,
  ]);
  const channelCount = channels.length + scheduleChannelCount;
  const desired = desiredEngineTasks(channelCount, deps.policy);
  await deps.sizer.resize(desired, { channelCount, scheduleChannelCount, trigger });
  return desired;
}
