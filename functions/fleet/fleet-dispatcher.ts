/**
 * Consumes channel events and sizes the engine fleet. Events only say "something changed": the size is
 * always recomputed from the channel table, so lost, duplicated or reordered events cannot skew it.
 */
import type { ChannelStore } from '../channel/stores/channel-store';
import { desiredEngineTasks, type FleetPolicy } from './desired-tasks';
import type { FleetSizer } from './fleet-sizer';

export interface FleetDeps {
  channels: Pick<ChannelStore, 'listAll'>;
  sizer: FleetSizer;
  policy: FleetPolicy;
}

export async function sizeFleet(deps: FleetDeps, trigger: string): Promise<number> {
  const channelCount = (await deps.channels.listAll()).length;
  const desired = desiredEngineTasks(channelCount, deps.policy);
  await deps.sizer.resize(desired, { channelCount, trigger });
  return desired;
}
