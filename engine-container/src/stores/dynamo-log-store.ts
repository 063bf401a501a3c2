/**
 * Playout logs in DynamoDB (table `playoutLog` of core/resources.ts: channelId + seq). Appending item
 * n+1 is a put that succeeds only if no item n+1 exists: the first engine task wins, the others read
 * its item. Items expire by TTL `retainAfterEndS` (a day by default: start-over's retention) after they
 * end, so `trim` has nothing to do.
 *
 * The channel's writer lease is one more item in the channel's partition, at seq -1 (reads start at
 * seq 0, so they never see it): `leaseOwner` and `leaseExpiresMs`, changed only by conditional writes.
 * Expiry is judged by the writer's clock: engine tasks must keep their clocks in step (NTP, as ECS
 * does) well within the lease's life.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { queryAll, writeIf } from '../../../core/dynamo/queries';
import { tableName, tables } from '../../../core/resources';
import type { PlayoutItem } from '../playout/item';
import { assertFollows, type LeasingLogStore } from '../playout/log-store';

const RETAIN_AFTER_END_S = 86_400;
/** The sort key of the lease item in each channel's partition. */
export const LEASE_SEQ = -1;

export class DynamoDbPlayoutLogStore implements LeasingLogStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table = tableName(tables.playoutLog),
    private readonly clock: () => number = Date.now,
    private readonly retainAfterEndS = RETAIN_AFTER_END_S,
  ) {}

  async read(channelId: string, fromSeq = 0, toSeq?: number): Promise<PlayoutItem[]> {
    const from = Math.max(0, fromSeq);
    if (toSeq !== undefined && toSeq <= from) return [];
    const items = await queryAll(this.ddb, {
      TableName: this.table,
      KeyConditionExpression:
        toSeq === undefined
          ? 'channelId = :c AND seq >= :from'
          : 'channelId = :c AND seq BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':c': channelId,
        ':from': from,
        ...(toSeq === undefined ? {} : { ':to': toSeq - 1 }),
      },
      ConsistentRead: true,
    });
    return items.map(({ channelId: _c, expiresAt: _e, ...item }) => item as unknown as PlayoutItem);
  }

  async readLast(channelId: string, count: number): Promise<PlayoutItem[]> {
    if (count <= 0) return [];
    // Newest first, one page (a page's 1 MB cap may give fewer: callers read back what they lack).
    const { Items = [] } = await this.ddb.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'channelId = :c AND seq >= :from',
        ExpressionAttributeValues: { ':c': channelId, ':from': 0 },
        ScanIndexForward: false,
        Limit: count,
        ConsistentRead: true,
      }),
    );
    return Items.reverse().map(({ channelId: _c, expiresAt: _e, ...item }) => item as unknown as PlayoutItem);
  }

  async append(
    channelId: string,
    item: PlayoutItem,
    expectedLastSeq: number,
  ): Promise<'appended' | 'conflict'> {
    assertFollows(item, expectedLastSeq);
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...item,
            channelId,
            expiresAt:
              Math.ceil(Math.max(item.startMs + item.durationMs, this.clock()) / 1000) + this.retainAfterEndS,
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

  acquireLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.writeLease(
      channelId,
      owner,
      ttlMs,
      'attribute_not_exists(leaseOwner) OR leaseOwner = :me OR leaseExpiresMs <= :now',
    );
  }

  renewLease(channelId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.writeLease(channelId, owner, ttlMs, 'leaseOwner = :me AND leaseExpiresMs > :now');
  }

  async releaseLease(channelId: string, owner: string): Promise<void> {
    await writeIf(() =>
      this.ddb.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { channelId, seq: LEASE_SEQ },
          ConditionExpression: 'leaseOwner = :me',
          ExpressionAttributeValues: { ':me': owner },
        }),
      ),
    );
  }

  private writeLease(channelId: string, owner: string, ttlMs: number, condition: string): Promise<boolean> {
    const now = this.clock();
    return writeIf(() =>
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { channelId, seq: LEASE_SEQ },
          UpdateExpression: 'SET leaseOwner = :me, leaseExpiresMs = :exp, expiresAt = :ttl',
          ConditionExpression: condition,
          ExpressionAttributeValues: {
            ':me': owner,
            ':now': now,
            ':exp': now + ttlMs,
            // A lease nobody renews is cleaned up by the table's TTL, like old items.
            ':ttl': Math.ceil((now + ttlMs) / 1000) + RETAIN_AFTER_END_S,
          },
        }),
      ),
    );
  }
}
