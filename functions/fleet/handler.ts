/**
 * Lambda on the channel-events queue (SQS event source: one resize per batch) and on a schedule
 * (EventBridge: schedule channels are created without a channel event).
 */
import type { ScheduledEvent, SQSEvent } from 'aws-lambda';
import { documentClient } from '../../core/aws';
import { readString } from '../../core/env';
import { tableName, tables } from '../../core/resources';
import { dynamoChannelStore } from '../channel/stores/channel-store';
import { fleetPolicyFromEnv } from './config';
import { sizeFleet } from './fleet-dispatcher';
import { EcsFleetSizer, fleetEcsClient } from './fleet-sizer';
import { dynamoScheduleChannelCount } from './schedule-channels';

const deps = {
  channels: dynamoChannelStore(documentClient(), tableName(tables.channels)),
  scheduleChannels: dynamoScheduleChannelCount(documentClient(), tableName(tables.scheduleChannels)),
  sizer: new EcsFleetSizer(fleetEcsClient(), readString('ENGINE_CLUSTER'), readString('ENGINE_SERVICE')),
  policy: fleetPolicyFromEnv(),
};

export async function handler(event: SQSEvent | ScheduledEvent): Promise<void> {
  if (!('Records' in event)) {
    await sizeFleet(deps, 'schedule');
    return;
  }
  const types = event.Records.map((r) => (JSON.parse(r.body) as { type?: string }).type ?? 'unknown');
  await sizeFleet(deps, types.join(','));
}
