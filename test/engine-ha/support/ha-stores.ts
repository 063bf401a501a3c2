/**
 * The shared stores the failover suite runs on, each a real server started for the test file: what
 * engine processes need to reach it (URL, environment), a store to read the log from the outside,
 * and who holds a channel's writer lease.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Redis } from 'ioredis';
import { tables } from '../../../core/resources';
import type { PlayoutLogStore } from '../../../engine-container/src/playout/log-store';
import { DynamoDbPlayoutLogStore, LEASE_SEQ } from '../../../engine-container/src/stores/dynamo-log-store';
import { RedisPlayoutLogStore } from '../../../engine-container/src/stores/redis-log-store';
import { startLocalCloud } from '../../../local/cloud';
import { sharedDynamoDb } from '../../support/run/shared-dynamodb';
import { startRedisServer } from './redis-server';

export interface HaStore {
  url: string;
  /** Environment for engine processes (the AWS SDK's endpoint and credentials for DynamoDB Local). */
  env: Record<string, string>;
  store: PlayoutLogStore;
  /** The owner id of the channel's unexpired writer lease, if any. */
  leaseOwner(channelId: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

export async function startRedisHaStore(): Promise<HaStore> {
  const server = await startRedisServer();
  const client = new Redis(server.url);
  return {
    url: server.url,
    env: {},
    store: new RedisPlayoutLogStore(client),
    leaseOwner: async (channelId) => (await client.get(`onair:{${channelId}}:lease`)) ?? undefined,
    stop: async () => {
      client.disconnect();
      await server.stop();
    },
  };
}

export async function startDynamoHaStore(): Promise<HaStore> {
  const cloud = await startLocalCloud({ sharedDynamoDb: sharedDynamoDb() });
  const { AWS_ENDPOINT_URL_DYNAMODB: endpoint, AWS_REGION: region } = cloud.env;
  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const table = cloud.env[tables.playoutLog.env]!;
  return {
    url: `dynamodb://${table}`,
    env: cloud.env,
    store: new DynamoDbPlayoutLogStore(ddb, table),
    leaseOwner: async (channelId) => {
      const { Item } = await ddb.send(
        new GetCommand({ TableName: table, Key: { channelId, seq: LEASE_SEQ }, ConsistentRead: true }),
      );
      return Item && Number(Item.leaseExpiresMs) > Date.now() ? String(Item.leaseOwner) : undefined;
    },
    stop: async () => {
      ddb.destroy();
      await cloud.stop();
    },
  };
}
