import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { signedAs } from './support/client-config';

describe('the recording proxy in front of DynamoDB Local', () => {
  let ddbLocal: DynamoDbLocal;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    ddbLocal = await startDynamoDbLocal();
    proxy = await startRecordingProxy({ targets: { dynamodb: ddbLocal.endpoint } });
    const direct = new DynamoDBClient(signedAs('setup', ddbLocal.endpoint));
    await direct.send(
      new CreateTableCommand({
        TableName: 'channels',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    direct.destroy();
  });
  afterAll(async () => {
    await proxy?.close();
    await ddbLocal?.stop();
  });

  it('writes and reads an item through it, recording each call on the table', async () => {
    const ddb = DynamoDBDocumentClient.from(
      new DynamoDBClient(signedAs('ChannelRole', proxy.endpoints.dynamodb!)),
    );
    await ddb.send(new PutCommand({ TableName: 'channels', Item: { pk: 'c1', name: 'News' } }));
    const { Item } = await ddb.send(new GetCommand({ TableName: 'channels', Key: { pk: 'c1' } }));
    ddb.destroy();
    expect(Item).toEqual({ pk: 'c1', name: 'News' });
    expect(proxy.calls().map((c) => [c.principal, c.action, c.resources, c.status])).toEqual([
      ['ChannelRole', 'dynamodb:PutItem', ['arn:aws:dynamodb:us-east-1:123456789012:table/channels'], 200],
      ['ChannelRole', 'dynamodb:GetItem', ['arn:aws:dynamodb:us-east-1:123456789012:table/channels'], 200],
    ]);
  });
});
