/**
 * Schedule entries in DynamoDB: partition `channelKey = <tenant>#<channelId>`, sort key `end_time`.
 * The entries overlapping [a, b) are one Query (`end_time > a`, filtered on `start_time < b`).
 *
 * New entries are written together with the channel's cursor (on the channel item) in one
 * transaction whose condition is the cursor's previous value: two scheduler runs that planned from
 * the same cursor cannot both write, so a schedule never gets duplicates or overlaps. The loser
 * sees 'conflict' and stops; the next run plans from the winner's cursor.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  batchDelete,
  isConditionFailure,
  isTransactionConflict,
  queryAll,
  queryPage,
} from '../../../core/dynamo';
import type { Page, PageKey, PageRequest } from '../../../core/paging';
import { channelKey, type ScheduleCursor, type ScheduleEntry } from '../model';
import type { PlannedEntry } from '../planning/plan-schedule';
import { toChannelRecord } from './channel-store';
import { ENTRY_KEY } from './page-keys';

export interface CursorRead {
  /** False when the channel does not exist (deleted meanwhile). */
  channelExists: boolean;
  cursor?: ScheduleCursor;
}

export interface EntryStore {
  /** A page of the entries with end_time > fromMs and start_time < toMs, ordered by time. */
  listOverlapping(
    tenant: string,
    channelId: string,
    fromMs: number,
    toMs: number,
    page: PageRequest,
  ): Promise<Page<ScheduleEntry>>;
  readCursor(tenant: string, channelId: string): Promise<CursorRead>;
  /**
   * Appends planned entries after `expectedEnd` (the cursor's endTime the plan started from;
   * undefined when the channel had no cursor). 'conflict' when another writer moved the cursor or
   * the channel was deleted; the entries written before a conflict (whole chunks) stay valid.
   */
  append(
    tenant: string,
    channelId: string,
    expectedEnd: number | undefined,
    planned: readonly PlannedEntry[],
  ): Promise<'appended' | 'conflict'>;
  /** Stores a manual entry (POST); 'taken' when an entry of the channel already ends at that instant. */
  putManual(tenant: string, channelId: string, entry: ScheduleEntry): Promise<'created' | 'taken'>;
  /** Removes a manual entry by id; false when there is none. */
  removeManual(tenant: string, channelId: string, entryId: string): Promise<boolean>;
  /** The manual entries ending after fromMs (the auto-scheduler plans around them). */
  listManual(tenant: string, channelId: string, fromMs: number): Promise<ScheduleEntry[]>;
  /** Deletes the entries that ended before cutoffMs; returns how many. */
  deleteEndedBefore(tenant: string, channelId: string, cutoffMs: number): Promise<number>;
  deleteAll(tenant: string, channelId: string): Promise<number>;
}

/** Entries per transaction, with the cursor update as one more action (DynamoDB allows 100). */
export const ENTRIES_PER_TRANSACTION = 49;

const ENTRY_FIELDS = [
  'id',
  'channelId',
  'title',
  'start_time',
  'end_time',
  'start',
  'end',
  'url',
  'duration',
  'type',
] as const;

function toEntry(item: Record<string, unknown>): ScheduleEntry {
  return Object.fromEntries(ENTRY_FIELDS.map((f) => [f, item[f]])) as unknown as ScheduleEntry;
}

export function dynamoEntryStore(
  ddb: DynamoDBDocumentClient,
  table: string,
  channelsTable: string,
): EntryStore {
  const keysOf = async (tenant: string, channelId: string, cutoffMs?: number) =>
    queryAll(ddb, {
      TableName: table,
      KeyConditionExpression:
        cutoffMs === undefined ? 'channelKey = :k' : 'channelKey = :k AND end_time < :c',
      ExpressionAttributeValues: {
        ':k': channelKey(tenant, channelId),
        ...(cutoffMs === undefined ? {} : { ':c': cutoffMs }),
      },
      ProjectionExpression: 'channelKey, end_time',
    });

  const writeChunk = async (
    tenant: string,
    channelId: string,
    expectedEnd: number | undefined,
    chunk: readonly PlannedEntry[],
  ) => {
    const last = chunk[chunk.length - 1]!;
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: channelsTable,
              Key: { tenant, id: channelId },
              UpdateExpression: 'SET cursorEnd = :end, cursorItemId = :item, cursorItemIndex = :index',
              ConditionExpression:
                expectedEnd === undefined
                  ? 'attribute_exists(id) AND attribute_not_exists(cursorEnd)'
                  : 'attribute_exists(id) AND cursorEnd = :prev',
              ExpressionAttributeValues: {
                ':end': last.cursor.endTime,
                ':item': last.cursor.lastItemId,
                ':index': last.cursor.lastItemIndex,
                ...(expectedEnd === undefined ? {} : { ':prev': expectedEnd }),
              },
            },
          },
          ...chunk.map(({ entry, cursor }) => ({
            Put: {
              TableName: table,
              Item: { ...entry, channelKey: channelKey(tenant, channelId), feedItemId: cursor.lastItemId },
              ConditionExpression: 'attribute_not_exists(end_time)',
            },
          })),
        ],
      }),
    );
    return last.cursor.endTime;
  };

  return {
    async listOverlapping(tenant, channelId, fromMs, toMs, { limit, after }) {
      const page = await queryPage(
        ddb,
        {
          TableName: table,
          KeyConditionExpression: 'channelKey = :k AND end_time > :from',
          FilterExpression: 'start_time < :to',
          ExpressionAttributeValues: { ':k': channelKey(tenant, channelId), ':from': fromMs, ':to': toMs },
        },
        { limit, after, keyAttributes: ENTRY_KEY },
      );
      return { items: page.items.map(toEntry), next: page.next as PageKey | undefined };
    },
    async readCursor(tenant, channelId) {
      const res = await ddb.send(
        new GetCommand({ TableName: channelsTable, Key: { tenant, id: channelId }, ConsistentRead: true }),
      );
      if (!res.Item) return { channelExists: false };
      return { channelExists: true, cursor: toChannelRecord(res.Item).cursor };
    },
    async append(tenant, channelId, expectedEnd, planned) {
      let previous = expectedEnd;
      for (let i = 0; i < planned.length; i += ENTRIES_PER_TRANSACTION) {
        try {
          previous = await writeChunk(
            tenant,
            channelId,
            previous,
            planned.slice(i, i + ENTRIES_PER_TRANSACTION),
          );
        } catch (err) {
          if (isTransactionConflict(err)) return 'conflict';
          throw err;
        }
      }
      return 'appended';
    },
    async putManual(tenant, channelId, entry) {
      try {
        await ddb.send(
          new PutCommand({
            TableName: table,
            Item: { ...entry, channelKey: channelKey(tenant, channelId), manual: true },
            ConditionExpression: 'attribute_not_exists(end_time)',
          }),
        );
        return 'created';
      } catch (err) {
        if (isConditionFailure(err)) return 'taken';
        throw err;
      }
    },
    async removeManual(tenant, channelId, entryId) {
      const found = await queryAll(ddb, {
        TableName: table,
        KeyConditionExpression: 'channelKey = :k',
        FilterExpression: '#id = :id AND #manual = :m',
        ExpressionAttributeNames: { '#id': 'id', '#manual': 'manual' },
        ExpressionAttributeValues: { ':k': channelKey(tenant, channelId), ':id': entryId, ':m': true },
        ProjectionExpression: 'channelKey, end_time',
      });
      const key = found[0];
      if (!key) return false;
      await ddb.send(new DeleteCommand({ TableName: table, Key: key }));
      return true;
    },
    async listManual(tenant, channelId, fromMs) {
      const items = await queryAll(ddb, {
        TableName: table,
        KeyConditionExpression: 'channelKey = :k AND end_time > :from',
        FilterExpression: '#manual = :m',
        ExpressionAttributeNames: { '#manual': 'manual' },
        ExpressionAttributeValues: { ':k': channelKey(tenant, channelId), ':from': fromMs, ':m': true },
      });
      return items.map(toEntry);
    },
    async deleteEndedBefore(tenant, channelId, cutoffMs) {
      const keys = await keysOf(tenant, channelId, cutoffMs);
      await batchDelete(ddb, table, keys);
      return keys.length;
    },
    async deleteAll(tenant, channelId) {
      const keys = await keysOf(tenant, channelId);
      await batchDelete(ddb, table, keys);
      return keys.length;
    },
  };
}
