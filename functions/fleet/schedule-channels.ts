/**
 * How many schedule-service channels exist, in every tenant: the engine plays them too, so the fleet
 * must not shrink to zero while any exist. A counting Scan (keys only, no items returned); the table
 * holds one small item per channel. Counting every tenant can only overestimate the engine's share.
 */
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

export interface ScheduleChannelCount {
  count(): Promise<number>;
}

export function dynamoScheduleChannelCount(ddb: DynamoDBDocumentClient, table: string): ScheduleChannelCount {
  return {
    async count() {
      let total = 0;
      let after: Record<string, unknown> | undefined;
      do {
        const page = await ddb.send(
          new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: after }),
        );
        total += page.Count ?? 0;
        after = page.LastEvaluatedKey;
      } while (after);
      return total;
    },
  };
}
