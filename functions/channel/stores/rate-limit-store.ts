/**
 * Fixed-window counters in DynamoDB (table `rateLimits`): one item per (scope, key, window), incremented
 * only while below the limit, and removed by TTL after the window. Shared by every Lambda instance.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeIf } from '../../../core/dynamo/queries';

export interface RateLimit {
  scope: string;
  limit: number;
  windowSeconds: number;
}

/** Counted, or refused because the window's limit is reached: then how long until the next window. */
export type HitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimitStore {
  /** Counts one hit of `key` against `rule` at `nowMs`, unless the window's limit is reached. */
  hit(rule: RateLimit, key: string, nowMs: number): Promise<HitOutcome>;
}

/** The fixed window holding `nowMs`, and the whole seconds (at least 1) left in it. */
export function fixedWindow(nowMs: number, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  const endMs = startMs + windowMs;
  return { startMs, endMs, secondsLeft: Math.max(1, Math.ceil((endMs - nowMs) / 1000)) };
}

export function dynamoRateLimitStore(ddb: DynamoDBDocumentClient, table: string): RateLimitStore {
  return {
    async hit(rule, key, nowMs) {
      const window = fixedWindow(nowMs, rule.windowSeconds);
      const counted = await writeIf(() =>
        ddb.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: `${rule.scope}#${key}#${window.startMs}` },
            UpdateExpression: 'SET expiresAt = :exp ADD hits :one',
            ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
            ExpressionAttributeValues: {
              ':exp': Math.ceil(window.endMs / 1000),
              ':one': 1,
              ':limit': rule.limit,
            },
          }),
        ),
      );
      return counted ? { ok: true } : { ok: false, retryAfterSeconds: window.secondsLeft };
    },
  };
}
