/**
 * What the engine played and has planned for a channel-service channel, read from the engine's shared
 * playout log (table `playoutLog` of core/resources.ts, written by every engine task; the channel is
 * logged under its name). Read-only: the channel service never writes the log.
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EpgEntry } from '../../../core/epg/epg';

/** The newest items read: at 6 s a segment a Loop channel appends a few hundred an hour at most. */
export const MAX_PLAYOUT_ITEMS = 500;

export interface PlayoutReader {
  /** The newest items (up to MAX_PLAYOUT_ITEMS) that end after `fromMs`, oldest first. */
  since(name: string, fromMs: number): Promise<EpgEntry[]>;
}

export function dynamoPlayoutReader(ddb: DynamoDBDocumentClient, table: string): PlayoutReader {
  return {
    async since(name, fromMs) {
      const res = await ddb.send(
        new QueryCommand({
          TableName: table,
          // seq >= 0 leaves out the writer lease (seq -1), which is not an item.
          KeyConditionExpression: 'channelId = :c AND seq >= :zero',
          ExpressionAttributeValues: { ':c': name, ':zero': 0 },
          ScanIndexForward: false,
          Limit: MAX_PLAYOUT_ITEMS,
        }),
      );
      return (res.Items ?? [])
        .map((i) => ({
          title: String(i.title ?? ''),
          start_time: Number(i.startMs),
          end_time: Number(i.startMs) + Number(i.durationMs),
          type: String(i.kind ?? 'vod').toUpperCase(),
          url: String(i.uri ?? ''),
        }))
        .filter((e) => e.end_time > fromMs)
        .reverse();
    },
  };
}
