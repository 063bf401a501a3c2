/**
 * What the engine played and has planned for a channel-service channel, read from the engine's shared
 * playout log (table `playoutLog` of core/resources.ts, written by every engine task; the channel is
 * logged under its name). Read-only: the channel service never writes the log. Items expire a day
 * after they end (the log's TTL), so a guide reaches back a day at most.
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EpgEntry } from '../../../core/epg/epg';

/** The most items one guide reads: a day of a 12 s loop is 7,200; a page of the log is 500. */
export const MAX_PLAYOUT_ITEMS = 10_000;
const PAGE_ITEMS = 500;

export interface PlayoutReader {
  /** The items that overlap [fromMs, toMs), oldest first (the newest MAX_PLAYOUT_ITEMS at most). */
  between(name: string, fromMs: number, toMs: number): Promise<EpgEntry[]>;
}

const toEntry = (i: Record<string, unknown>): EpgEntry => ({
  title: String(i.title ?? ''),
  start_time: Number(i.startMs),
  end_time: Number(i.startMs) + Number(i.durationMs),
  type: String(i.kind ?? 'vod').toUpperCase(),
  url: String(i.uri ?? ''),
});

export function dynamoPlayoutReader(ddb: DynamoDBDocumentClient, table: string): PlayoutReader {
  return {
    async between(name, fromMs, toMs) {
      const found: EpgEntry[] = [];
      let after: Record<string, unknown> | undefined;
      let read = 0;
      // Newest first, until an item ends before the range: the log is in time order by seq.
      do {
        const res = await ddb.send(
          new QueryCommand({
            TableName: table,
            // seq >= 0 leaves out the writer lease (-1) and the channel's status (-2), which are not items.
            KeyConditionExpression: 'channelId = :c AND seq >= :zero',
            ExpressionAttributeValues: { ':c': name, ':zero': 0 },
            ScanIndexForward: false,
            Limit: PAGE_ITEMS,
            ExclusiveStartKey: after,
          }),
        );
        const items = (res.Items ?? []).map(toEntry);
        read += items.length;
        found.push(...items.filter((e) => e.end_time > fromMs && e.start_time < toMs));
        if (items.some((e) => e.end_time <= fromMs)) break;
        after = res.LastEvaluatedKey;
      } while (after && read < MAX_PLAYOUT_ITEMS);
      return found.reverse();
    },
  };
}
