/**
 * Fixed-window counters in DynamoDB (table `rateLimits`): one item per (scope, key, window), incremented
 * only while below the limit, and removed by TTL after the window. Shared by every Lambda instance.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tooManyRequests } from '../../core/errors';
import { tableName, tables } from '../../core/resources';

export interface RateLimit {
  scope: string;
  limit: number;
  windowSeconds: number;
}

export class RateLimiter {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table = tableName(tables.rateLimits),
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit of `key` against `rule`; throws 429 once the window's limit is reached. */
  async hit(rule: RateLimit, key: string): Promise<void> {
    const windowMs = rule.windowSeconds * 1000;
    const windowStart = Math.floor(this.now() / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    try {
      await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `${rule.scope}#${key}#${windowStart}` },
          UpdateExpression: 'SET expiresAt = :exp ADD hits :one',
          ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
          ExpressionAttributeValues: { ':exp': Math.ceil(windowEnd / 1000), ':one': 1, ':limit': rule.limit },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const retryAfter = Math.max(1, Math.ceil((windowEnd - this.now()) / 1000));
      throw tooManyRequests(`too many requests for ${rule.scope}; try again later`, retryAfter);
    }
  }
}
