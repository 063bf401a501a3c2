/**
 * Channel statuses in DynamoDB: one small item per engine channel in the playout log table (the store
 * every engine task writes and the channel API already reads), at seq -2 of the channel's partition
 * (the log's items start at 0, the writer lease is at -1, so no log read sees it).
 *
 * Several engine tasks see the same item start and each may write: a write is conditional on the item
 * being newer than the stored one, so a slow task never puts back an older status; for the same item,
 * a write that knows the reason may fill in one that did not (only the task that planned the item saw
 * the error). Reads are GetItems, a bounded number at a time.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../dynamo/queries';
import { mapLimit } from '../map-limit';
import { channelStatuses, type StatusRecord, statusReasons } from './status';

/** The sort key of the status item in each channel's partition of the playout log. */
export const STATUS_SEQ = -2;
/** GetItems in flight for one list. */
const READ_CONCURRENCY = 16;

export interface StatusReader {
  /** The records of these engine channel ids, by id (absent: none written yet). */
  read(channelIds: readonly string[]): Promise<Map<string, StatusRecord>>;
}

export interface StatusWriter {
  /** False when the stored record is newer (or as new and as complete): nothing written. */
  write(channelId: string, record: StatusRecord): Promise<boolean>;
  remove(channelId: string): Promise<void>;
}

const key = (channelId: string) => ({ channelId, seq: STATUS_SEQ });

/** A stored item as a record; undefined when it is not one (never trust a store's shape). */
export function toStatusRecord(item: Record<string, unknown> | undefined): StatusRecord | undefined {
  if (!item) return undefined;
  const { status, reason, itemSeq, sinceMs, updatedMs } = item;
  if (!(channelStatuses as readonly unknown[]).includes(status)) return undefined;
  if (typeof itemSeq !== 'number' || typeof sinceMs !== 'number') return undefined;
  const record: StatusRecord = { status: status as StatusRecord['status'], itemSeq, sinceMs };
  if ((statusReasons as readonly unknown[]).includes(reason))
    record.reason = reason as StatusRecord['reason'];
  if (typeof updatedMs === 'number') record.writtenMs = updatedMs;
  return record;
}

export function dynamoStatusReader(ddb: DynamoDBDocumentClient, table: string): StatusReader {
  return {
    async read(channelIds) {
      const found = await mapLimit(channelIds, READ_CONCURRENCY, async (id) => {
        const res = await ddb.send(new GetCommand({ TableName: table, Key: key(id) }));
        return [id, toStatusRecord(res.Item)] as const;
      });
      return new Map(found.filter((e): e is [string, StatusRecord] => e[1] !== undefined));
    },
  };
}

export function dynamoStatusWriter(
  ddb: DynamoDBDocumentClient,
  table: string,
  clock: () => number = Date.now,
): StatusWriter {
  return {
    async write(channelId, record) {
      const values: Record<string, unknown> = {
        ':status': record.status,
        ':seq': record.itemSeq,
        ':since': record.sinceMs,
        ':now': clock(),
      };
      let set = 'SET #status = :status, itemSeq = :seq, sinceMs = :since, updatedMs = :now';
      let condition = 'attribute_not_exists(itemSeq) OR itemSeq < :seq';
      if (record.reason) {
        values[':reason'] = record.reason;
        set += ', reason = :reason';
        condition += ' OR (itemSeq = :seq AND (#status <> :status OR attribute_not_exists(reason)))';
      }
      try {
        await ddb.send(
          new UpdateCommand({
            TableName: table,
            Key: key(channelId),
            UpdateExpression: record.reason ? set : `${set} REMOVE reason`,
            ConditionExpression: condition,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
    async remove(channelId) {
      await ddb.send(new DeleteCommand({ TableName: table, Key: key(channelId) }));
    },
  };
}
