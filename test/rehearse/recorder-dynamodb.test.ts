import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { type AwsTarget, startAwsTarget } from './support/aws-target';
import { signedAs } from './support/client-config';

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table';

describe('the recording proxy, for DynamoDB', () => {
  let target: AwsTarget;
  let proxy: RecordingProxy;
  let ddb: DynamoDBDocumentClient;
  beforeAll(async () => {
    target = await startAwsTarget();
    proxy = await startRecordingProxy({ targets: { dynamodb: target.url } });
    ddb = DynamoDBDocumentClient.from(new DynamoDBClient(signedAs('ChannelRole', proxy.endpoints.dynamodb!)));
  });
  afterAll(async () => {
    ddb?.destroy();
    await proxy?.close();
    await target?.close();
  });
  const callsOf = (operation: string) => proxy.calls().filter((c) => c.operation === operation);

  it('records a Query on an index as dynamodb:Query on the index ARN, signed by the access key', async () => {
    await ddb.send(
      new QueryCommand({
        TableName: 'channels',
        IndexName: 'byTenant',
        KeyConditionExpression: 'tenant = :t',
        ExpressionAttributeValues: { ':t': 'a' },
      }),
    );
    expect(callsOf('Query')).toEqual([
      {
        principal: 'ChannelRole',
        service: 'dynamodb',
        operation: 'Query',
        action: 'dynamodb:Query',
        resources: [`${TABLE}/channels/index/byTenant`],
        status: 200,
      },
    ]);
  });

  it('records TransactWriteItems as the item-level action of each item on its table', async () => {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: 'channels', Item: { pk: 'a', sk: 'b' } } },
          {
            ConditionCheck: {
              TableName: 'limits',
              Key: { pk: 'x' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
        ],
      }),
    );
    expect(callsOf('TransactWriteItems').map((c) => [c.action, c.resources])).toEqual([
      ['dynamodb:PutItem', [`${TABLE}/channels`]],
      ['dynamodb:ConditionCheckItem', [`${TABLE}/limits`]],
    ]);
  });

  it('records BatchWriteItem as dynamodb:BatchWriteItem on every table it writes', async () => {
    await ddb.send(
      new BatchWriteCommand({
        RequestItems: {
          log: [{ PutRequest: { Item: { id: '1' } } }],
          jobs: [{ DeleteRequest: { Key: { id: '2' } } }],
        },
      }),
    );
    expect(callsOf('BatchWriteItem').map((c) => [c.action, c.resources])).toEqual([
      ['dynamodb:BatchWriteItem', [`${TABLE}/log`, `${TABLE}/jobs`]],
    ]);
  });
});
