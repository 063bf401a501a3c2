/**
 * Schedule channels in DynamoDB: one partition per tenant, so a tenant's list is one Query. The
 * channel item also carries the id of its auto-scheduler (at most one) and its schedule cursor
 * (see entry-store.ts).
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, queryPage, writeIf } from '../../../core/dynamo/queries';
import { type MediaShape, mediaOf } from '../../../core/media-shape';
import type { Page, PageKey, PageRequest } from '../../../core/paging';
import type { ScheduleChannel, ScheduleCursor } from '../model';
import type { ChangeStamp } from './change-stamp';
import { TENANT_ID_KEY } from './page-keys';

/**
 * Counters on the channel item, moved in the same write as its entries (entry-store.ts): an engine
 * re-reads a channel's schedule only when they moved. Absent until the first such write.
 */
export interface ChannelVersions {
  /** Moves with every entry written or removed. */
  scheduleVersion?: number;
  /** Moves with every LIVE entry written or removed. */
  liveVersion?: number;
}

/** `createdAt` (Unix ms): a status older than the channel is an earlier channel's (core/channel-status/). */
export type ListedChannel = ScheduleChannel & ChannelVersions & { createdAt?: number };

export interface ChannelRecord extends ScheduleChannel, ChannelVersions {
  createdAt: number;
  feedId?: string;
  cursor?: ScheduleCursor;
}

export interface ChannelStore {
  /** False when the tenant already has a channel with that id. */
  create(channel: ScheduleChannel, nowMs: number): Promise<boolean>;
  get(tenant: string, id: string): Promise<ChannelRecord | undefined>;
  /** A page of the tenant's channels, ordered by id. */
  list(tenant: string, page: PageRequest): Promise<Page<ListedChannel>>;
  /**
   * A page of every tenant's channels (a Scan: no order promised; the cursor is the last key). Read
   * only for a caller allowed to see every tenant (the engine's service token, or local mode).
   */
  listAll(page: PageRequest): Promise<Page<ListedChannel>>;
  /** False when there was no such channel. */
  remove(tenant: string, id: string): Promise<boolean>;
}

export function toChannelRecord(item: Record<string, unknown>): ChannelRecord {
  const record: ChannelRecord = {
    id: String(item.id),
    tenant: String(item.tenant),
    title: String(item.title),
    createdAt: Number(item.createdAt),
    // Written by this store from a validated request (publicChannel): the fields are trusted as they are.
    ...mediaOf(item as MediaShape),
  };
  if (item.adDelivery === 'spliced' || item.adDelivery === 'interstitial')
    record.adDelivery = item.adDelivery;
  if (typeof item.feedId === 'string') record.feedId = item.feedId;
  if (typeof item.scheduleVersion === 'number') record.scheduleVersion = item.scheduleVersion;
  if (typeof item.liveVersion === 'number') record.liveVersion = item.liveVersion;
  if (typeof item.cursorEnd === 'number') {
    record.cursor = {
      endTime: item.cursorEnd,
      lastItemId: String(item.cursorItemId ?? ''),
      lastItemIndex: Number(item.cursorItemIndex ?? -1),
    };
  }
  return record;
}

export const publicChannel = (c: ScheduleChannel): ScheduleChannel => ({
  id: c.id,
  tenant: c.tenant,
  title: c.title,
  ...mediaOf(c),
  ...(c.adDelivery ? { adDelivery: c.adDelivery } : {}),
});

/** A channel as the lists show it: its public fields and its versions. */
function listed(item: Record<string, unknown>): ListedChannel {
  const { scheduleVersion, liveVersion, createdAt, ...record } = toChannelRecord(item);
  return {
    ...publicChannel(record),
    ...(Number.isFinite(createdAt) ? { createdAt } : {}),
    ...(scheduleVersion === undefined ? {} : { scheduleVersion }),
    ...(liveVersion === undefined ? {} : { liveVersion }),
  };
}

export function dynamoChannelStore(
  ddb: DynamoDBDocumentClient,
  table: string,
  stamp: ChangeStamp,
): ChannelStore {
  async function get(tenant: string, id: string): Promise<ChannelRecord | undefined> {
    const res = await ddb.send(
      new GetCommand({ TableName: table, Key: { tenant, id }, ConsistentRead: true }),
    );
    return res.Item ? toChannelRecord(res.Item) : undefined;
  }

  return {
    async create(channel, nowMs) {
      try {
        await ddb.send(
          new PutCommand({
            TableName: table,
            // Versions start at 0: an absent one marks a channel written before they were kept.
            Item: { ...publicChannel(channel), createdAt: nowMs, scheduleVersion: 0, liveVersion: 0 },
            ConditionExpression: 'attribute_not_exists(id)',
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        // The SDK retries a put whose answer timed out: when that first attempt landed, the retry
        // finds this very write (same moment, same title), and the channel was created after all.
        const stored = await get(channel.tenant, channel.id);
        if (stored?.createdAt !== nowMs || stored.title !== channel.title) return false;
      }
      await stamp.bump();
      return true;
    },
    get,
    async list(tenant, { limit, after }) {
      const page = await queryPage(
        ddb,
        {
          TableName: table,
          KeyConditionExpression: 'tenant = :t',
          ExpressionAttributeValues: { ':t': tenant },
        },
        { limit, after, keyAttributes: TENANT_ID_KEY },
      );
      return {
        items: page.items.map(listed),
        next: page.next as PageKey | undefined,
      };
    },
    async listAll({ limit, after }) {
      const items: Record<string, unknown>[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined = after;
      do {
        // Consistent: an engine lists after the change stamp moved and must see the change it follows.
        const res = await ddb.send(
          new ScanCommand({
            TableName: table,
            Limit: limit - items.length,
            ExclusiveStartKey,
            ConsistentRead: true,
          }),
        );
        items.push(...(res.Items ?? []));
        ExclusiveStartKey = res.LastEvaluatedKey;
      } while (ExclusiveStartKey && items.length < limit);
      const next = ExclusiveStartKey
        ? { tenant: String(ExclusiveStartKey.tenant), id: String(ExclusiveStartKey.id) }
        : undefined;
      return { items: items.map(listed), next };
    },
    async remove(tenant, id) {
      const removed = await writeIf(() =>
        ddb.send(
          new DeleteCommand({
            TableName: table,
            Key: { tenant, id },
            ConditionExpression: 'attribute_exists(id)',
          }),
        ),
      );
      if (removed) await stamp.bump();
      return removed;
    },
  };
}
