/** The DynamoDB store, on DynamoDB Local with the table of core/resources.ts, keeps the contract. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { tables } from '../../core/resources';
import { DynamoDbPlayoutLogStore } from '../../engine-container/src/stores/dynamo-log-store';
import { type LocalCloud, startLocalCloud } from '../../local/cloud';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { logStoreContract } from './log-store-contract';

let cloud: LocalCloud;
let ddb: DynamoDBDocumentClient;

beforeAll(async () => {
  cloud = await startLocalCloud({ sharedDynamoDb: sharedDynamoDb() });
  const { AWS_ENDPOINT_URL_DYNAMODB: endpoint, AWS_REGION: region } = cloud.env;
  ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}, 60_000);

afterAll(async () => {
  ddb?.destroy();
  await cloud?.stop();
});

logStoreContract('DynamoDB store', () => new DynamoDbPlayoutLogStore(ddb, cloud.env[tables.playoutLog.env]!));
