/** Lambda on the channel-events queue (SQS event source): one resize per batch. */
import type { SQSEvent } from 'aws-lambda';
import { documentClient } from '../../core/aws';
import { readString } from '../../core/env';
import { tableName, tables } from '../../core/resources';
import { dynamoChannelStore } from '../channel/stores/channel-store';
import { fleetPolicyFromEnv } from './config';
import { sizeFleet } from './fleet-dispatcher';
import { EcsFleetSizer, fleetEcsClient } from './fleet-sizer';

const deps = {
  channels: dynamoChannelStore(documentClient(), tableName(tables.channels)),
  sizer: new EcsFleetSizer(fleetEcsClient(), readString('ENGINE_CLUSTER'), readString('ENGINE_SERVICE')),
  policy: fleetPolicyFromEnv(),
};

export async function handler(event: SQSEvent): Promise<void> {
  const types = event.Records.map((r) => (JSON.parse(r.body) as { type?: string }).type ?? 'unknown');
  await sizeFleet(deps, types.join(','));
}
