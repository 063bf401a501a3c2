/**
 * Schedule entries in DynamoDB: partition `channelKey = <tenant>#<channelId>`, sort key `end_time`.
 * The entries overlapping [a, b) are one Query (`end_time > a`, filtered on `start_time < b`).
 *
 * New entries are written together with the channel's cursor (on the channel item) in one
 * transaction whose condition is the cursor's previous value: two scheduler runs that planned from
 * the same cursor cannot both write, so a schedule never gets duplicates or overlaps. The loser
 * sees 'conflict' and stops; the next run plans from the winner's cursor.
 *
 * Every write of entries also moves the channel's `scheduleVersion` (and `liveVersion` for LIVE
 * entries) in the same transaction, then the service's change stamp (change-stamp.ts): engines read a
 * channel's schedule again only when its versions moved.
 */
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete, isTransactionConflict, queryAll, queryPage } from '../../../core/dynamo/queries';
import { transactWithRetry } from '../../../core/dynamo/transact-retry';
import type { Page, PageKey, PageRequest } from '../../../core/paging';
import { channelKey, type ScheduleCursor, type ScheduleEntry } from '../model';
import type { PlannedEntry } from '../planning/plan-schedule';
import type { ChangeStamp } from './change-stamp';
import { toChannelRecord } from './channel-store';
import { ENTRY_KEY } from './page-keys';

export interface CursorRead {
  /** False when the channel does not exist (deleted meanwhile). */
  channelExists: boolean;
  cursor?: ScheduleCursor;
}

export type PutManualResult = 'created' | 'taken' | 'no-channel' | 'busy' | { overlaps: ScheduleEntry };

/** Attempts of a manual put whose check another write of the channel raced. */
const PUT_ATTEMPTS = 5;

export interface EntryStore {
  /** A page of the entries with end_time > fromMs and start_time < toMs (of `type` only, if given), ordered by time. */
  listOverlapping(
    tenant: string,
    channelId: string,
    fromMs: number,
    toMs: number,
    page: PageRequest,
    type?: ScheduleEntry['type'],
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
  /**
   * Stores a manual entry (POST) unless it overlaps an entry of the same type (answered, the earliest),
   * or an entry of the channel already ends at that instant ('taken'); 'no-channel' when the channel
   * is gone; 'busy' when other writes of the channel kept moving it during the check. LIVE over VOD is no overlap: a LIVE entry cuts into the VODs (docs/live-mixing.md).
   */
  putManual(tenant: string, channelId: string, entry: ScheduleEntry): Promise<PutManualResult>;
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
  const entry = Object.fromEntries(ENTRY_FIELDS.map((f) => [f, item[f]])) as unknown as ScheduleEntry;
  // Written by this store from a validated request (api/ad-breaks.ts): trusted as it is.
  if (Array.isArray(item.adBreaks)) entry.adBreaks = item.adBreaks as ScheduleEntry['adBreaks'];
  return entry;
}

/** The channel item's version counters, moved by a write of `type` entries (one action of its transaction). */
function versionBump(channelsTable: string, tenant: string, channelId: string, type: ScheduleEntry['type']) {
  return {
    Update: {
      TableName: channelsTable,
      Key: { tenant, id: channelId },
      UpdateExpression:
        type === 'LIVE' ? 'ADD scheduleVersion :one, liveVersion :one' : 'ADD scheduleVersion :one',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

export function dynamoEntryStore(
  ddb: DynamoDBDocumentClient,
  table: string,
  channelsTable: string,
  stamp: ChangeStamp,
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
              UpdateExpression:
                'SET cursorEnd = :end, cursorItemId = :item, cursorItemIndex = :index ADD scheduleVersion :one',
              ConditionExpression:
                expectedEnd === undefined
                  ? 'attribute_exists(id) AND attribute_not_exists(cursorEnd)'
                  : 'attribute_exists(id) AND cursorEnd = :prev',
              ExpressionAttributeValues: {
                ':end': last.cursor.endTime,
                ':item': last.cursor.lastItemId,
                ':index': last.cursor.lastItemIndex,
                ':one': 1,
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
    async listOverlapping(tenant, channelId, fromMs, toMs, { limit, after }, type) {
      const page = await queryPage(
        ddb,
        {
          TableName: table,
          KeyConditionExpression: 'channelKey = :k AND end_time > :from',
          FilterExpression: type ? 'start_time < :to AND #type = :type' : 'start_time < :to',
          ...(type ? { ExpressionAttributeNames: { '#type': 'type' } } : {}),
          ExpressionAttributeValues: {
            ':k': channelKey(tenant, channelId),
            ':from': fromMs,
            ':to': toMs,
            ...(type ? { ':type': type } : {}),
          },
          // An engine reads a schedule after its version moved: it must see the write that moved it.
          ConsistentRead: true,
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
      let written = false;
      try {
        for (let i = 0; i < planned.length; i += ENTRIES_PER_TRANSACTION) {
          try {
            previous = await writeChunk(
              tenant,
              channelId,
              previous,
              planned.slice(i, i + ENTRIES_PER_TRANSACTION),
            );
            written = true;
          } catch (err) {
            if (isTransactionConflict(err)) return 'conflict';
            throw err;
          }
        }
        return 'appended';
      } finally {
        if (written) await stamp.bump();
      }
    },
    async putManual(tenant, channelId, entry) {
      const key = channelKey(tenant, channelId);
      for (let attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
        // The check holds while the channel's scheduleVersion stands: every entry write moves it.
        const channel = await ddb.send(
          new GetCommand({ TableName: channelsTable, Key: { tenant, id: channelId }, ConsistentRead: true }),
        );
        if (!channel.Item) return 'no-channel';
        const version = channel.Item.scheduleVersion;
        const overlapping = await queryAll(ddb, {
          TableName: table,
          KeyConditionExpression: 'channelKey = :k AND end_time > :start',
          FilterExpression: 'start_time < :end AND #type = :type',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':k': key,
            ':start': entry.start_time,
            ':end': entry.end_time,
            ':type': entry.type,
          },
          ConsistentRead: true,
        });
        if (overlapping[0]) return { overlaps: toEntry(overlapping[0]) };
        const bump = versionBump(channelsTable, tenant, channelId, entry.type);
        const outcome = await transactWithRetry(ddb, {
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...entry, channelKey: key, manual: true },
                ConditionExpression: 'attribute_not_exists(end_time)',
              },
            },
            {
              Update: {
                ...bump.Update,
                ConditionExpression:
                  version === undefined
                    ? 'attribute_exists(id) AND attribute_not_exists(scheduleVersion)'
                    : 'attribute_exists(id) AND scheduleVersion = :v',
                ExpressionAttributeValues: {
                  ...bump.Update.ExpressionAttributeValues,
                  ...(version === undefined ? {} : { ':v': version }),
                },
              },
            },
          ],
        });
        if (outcome.ok) {
          await stamp.bump();
          return 'created';
        }
        if (outcome.failedAction === 0) return 'taken';
        // The channel's schedule moved since the check (or the channel went): check again.
      }
      return 'busy';
    },
    async removeManual(tenant, channelId, entryId) {
      const found = await queryAll(ddb, {
        TableName: table,
        KeyConditionExpression: 'channelKey = :k',
        FilterExpression: '#id = :id AND #manual = :m',
        ExpressionAttributeNames: { '#id': 'id', '#manual': 'manual', '#type': 'type' },
        ExpressionAttributeValues: { ':k': channelKey(tenant, channelId), ':id': entryId, ':m': true },
        ProjectionExpression: 'channelKey, end_time, #type',
      });
      const item = found[0];
      if (!item) return false;
      const key = { channelKey: item.channelKey, end_time: item.end_time };
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          { Delete: { TableName: table, Key: key, ConditionExpression: 'attribute_exists(end_time)' } },
          versionBump(channelsTable, tenant, channelId, item.type === 'LIVE' ? 'LIVE' : 'VOD'),
        ],
      });
      // Removed meanwhile, or the channel is being deleted (which removes its entries): not found.
      if (!outcome.ok) return false;
      await stamp.bump();
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
