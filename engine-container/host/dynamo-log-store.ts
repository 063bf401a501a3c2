/**
 * Playout logs in DynamoDB (table `playoutLog`: channelId + seq). Appending item n+1 is a put that
 * succeeds only if no item n+1 exists: the first engine task wins, the others read its item. Items
 * expire by TTL a day after they end, so `trim` has nothing to do.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../../core/dynamo';
import { tableName, tables } from '../../core/resources';
import type { PlayoutItem } from '../src/playout/item';
import type { PlayoutLogStore } from '../src/playout/log-store';

const RETAIN_AFTER_END_S = 86_400;

export class DynamoDbPlayoutLogStore implements PlayoutLogStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table = tableName(tables.playoutLog),
  ) {}

  async read(channelId: string, fromSeq = 0): Promise<PlayoutItem[]> {
    const items = await queryAll(this.ddb, {
      TableName: this.table,
      KeyConditionExpression: 'channelId = :c AND seq >= :from',
      ExpressionAttributeValues: { ':c': channelId, ':from': fromSeq },
      ConsistentRead: true,
    });
    return items.map(({ channelId: _c, expiresAt: _e, ...item }) => item as unknown as PlayoutItem);
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    if (item.seq !== expectedLastSeq + 1)
      throw new Error(`item seq ${item.seq} does not follow ${expectedLastSeq}`);
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...item,
            channelId,
            expiresAt: Math.ceil((item.startMs + item.durationMs) / 1000) + RETAIN_AFTER_END_S,
          },
          ConditionExpression: 'attribute_not_exists(seq)',
        }),
      );
      return 'appended';
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return 'conflict';
      throw err;
    }
  }

  async trim(): Promise<void> {
    // TTL removes old items.
  }
}
