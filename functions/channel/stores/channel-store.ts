/**
 * Channels in DynamoDB (table `channels` of resources.ts). A create is one transaction: put the channel
 * (its name must be free in the whole deployment) and increment the tenant's counter only while it is
 * below the tenant's limit. Concurrent creates therefore can never exceed the limit, and a refused create
 * writes nothing. A delete decrements the counter in the same transaction.
 *
 * Every write the engine fleet must see (create, delete, a live event added or removed) also bumps the
 * deployment's change stamp in the same transaction, so a reader never sees a change without the
 * stamp having moved: engines read the stamp (one GetItem) and list the channels only when it moved
 * (engine-container/host/channel-table-manager.ts, docs/design.md "How the parts talk").
 */
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { queryAll, queryPage } from '../../../core/dynamo/queries';
import { readStamp, stampIncrement } from '../../../core/dynamo/stamp';
import { transactWithRetry } from '../../../core/dynamo/transact-retry';
import type { Page, PageKey, PageRequest } from '../../../core/paging';
import { channelId } from '../channel-id';
import { CHANNEL_NAME } from '../channel-schema';
import type { Channel, LiveEvent } from '../model';

export type CreateOutcome = { ok: true } | { ok: false; reason: 'name_taken' | 'limit_reached' };

export interface ChannelStore {
  /** Refused when the name is taken (by any tenant) or the tenant already has `maxChannels` channels. */
  create(channel: Channel, maxChannels: number): Promise<CreateOutcome>;
  /** The removed channel; undefined when the tenant has no channel of that name. */
  remove(tenant: string, name: string): Promise<Channel | undefined>;
  get(name: string): Promise<Channel | undefined>;
  /**
   * Sets the tenant's channel's url and opts (undefined opts: none), bumping the stamp in the same
   * transaction so every engine picks the change up; the channel as stored after, or undefined when
   * the tenant has no channel of that name.
   */
  update(tenant: string, name: string, change: Pick<Channel, 'url' | 'opts'>): Promise<Channel | undefined>;
  /** A page of the tenant's channels, ordered by name. */
  listByTenant(tenant: string, page: PageRequest): Promise<Page<Channel>>;
  /** Every channel of the deployment (the engine fleet's channel manager). */
  listAll(): Promise<Channel[]>;
  /** Adds a live event to the tenant's channel; false when it has none of that name or `max` events. */
  addEvent(tenant: string, name: string, event: LiveEvent, max: number): Promise<boolean>;
  /** Removes the live event at `index` if it is `eventId`; false when it is not (any more). */
  removeEvent(tenant: string, name: string, index: number, eventId: string): Promise<boolean>;
  /** The change stamp: it moves with every write above that succeeds (0 before the first). */
  changeStamp(): Promise<number>;
}

const channelKey = (name: string) => ({ pk: `CHANNEL#${name}`, sk: 'CHANNEL' });
const counterKey = (tenant: string) => ({ pk: `TENANT#${tenant}`, sk: 'COUNTER' });
/** Reserved: channel items are `CHANNEL#…` and counters `TENANT#…`, so no channel or tenant can be it. */
export const STAMP_KEY = { pk: 'CHANGES', sk: 'STAMP' } as const;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The stamp's increment, one more action of the transaction that makes a change. */
const bumpStamp = (table: string): TransactItem => ({ Update: stampIncrement(table, STAMP_KEY) });

/** Keys of the byTenant index: its own (tenant, name) and the table's (pk, sk). */
const TENANT_PAGE_KEY = ['tenant', 'name', 'pk', 'sk'] as const;

/** The only keys a page of `tenant`'s channels can continue after (a cursor is checked against it). */
export const tenantPageKey = (tenant: string) =>
  z
    .object({
      tenant: z.literal(tenant),
      name: z.string().regex(CHANNEL_NAME),
      pk: z.string(),
      sk: z.literal('CHANNEL'),
    })
    .strict()
    .refine((key) => key.pk === channelKey(key.name).pk);

/** The id is derived, not read: records written under an older id form read with the current one. */
function toChannel(item: Record<string, unknown>): Channel {
  const { tenant, name, type, url, opts, createdAt, events } = item as unknown as Channel;
  const channel: Channel = { id: channelId(tenant, name), tenant, name, type, url, createdAt };
  if (opts) channel.opts = opts;
  if (events?.length) channel.events = events;
  return channel;
}

export function dynamoChannelStore(ddb: DynamoDBDocumentClient, table: string): ChannelStore {
  const get = async (name: string) => {
    const res = await ddb.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': channelKey(name).pk, ':sk': 'CHANNEL' },
        ConsistentRead: true,
      }),
    );
    return res.Items?.[0] ? toChannel(res.Items[0]) : undefined;
  };

  return {
    async create(channel, maxChannels) {
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: { ...channelKey(channel.name), kind: 'channel', ...channel },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table,
              Key: counterKey(channel.tenant),
              UpdateExpression: 'SET channelCount = if_not_exists(channelCount, :zero) + :one',
              ConditionExpression: 'attribute_not_exists(channelCount) OR channelCount < :max',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': maxChannels },
            },
          },
          bumpStamp(table),
        ],
      });
      if (outcome.ok) return outcome;
      return { ok: false, reason: outcome.failedAction === 0 ? 'name_taken' : 'limit_reached' };
    },

    async remove(tenant, name) {
      const existing = await get(name);
      if (!existing || existing.tenant !== tenant) return undefined;
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          {
            Delete: {
              TableName: table,
              Key: channelKey(name),
              ConditionExpression: 'tenant = :tenant',
              ExpressionAttributeValues: { ':tenant': tenant },
            },
          },
          {
            Update: {
              TableName: table,
              Key: counterKey(tenant),
              UpdateExpression: 'SET channelCount = channelCount - :one',
              ConditionExpression: 'channelCount > :zero',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
            },
          },
          bumpStamp(table),
        ],
      });
      if (outcome.ok) return existing;
      // Gone (or re-created by another tenant) since the read: for this tenant it does not exist.
      if (outcome.failedAction === 0) return undefined;
      throw new Error(`channel counter of tenant ${tenant} is already 0 while it has channel ${name}`);
    },

    get,
    async update(tenant, name, change) {
      const values: Record<string, unknown> = { ':tenant': tenant, ':url': change.url };
      if (change.opts) values[':opts'] = change.opts;
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: channelKey(name),
              UpdateExpression: change.opts ? 'SET #url = :url, opts = :opts' : 'SET #url = :url REMOVE opts',
              ConditionExpression: 'attribute_exists(pk) AND tenant = :tenant',
              ExpressionAttributeNames: { '#url': 'url' },
              ExpressionAttributeValues: values,
            },
          },
          bumpStamp(table),
        ],
      });
      return outcome.ok ? get(name) : undefined;
    },
    async listByTenant(tenant, { limit, after }) {
      const page = await queryPage(
        ddb,
        {
          TableName: table,
          IndexName: 'byTenant',
          KeyConditionExpression: 'tenant = :t',
          ExpressionAttributeValues: { ':t': tenant },
        },
        { limit, after, keyAttributes: TENANT_PAGE_KEY },
      );
      return { items: page.items.map(toChannel), next: page.next as PageKey | undefined };
    },
    async addEvent(tenant, name, event, max) {
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: channelKey(name),
              UpdateExpression: 'SET events = list_append(if_not_exists(events, :none), :event)',
              ConditionExpression:
                'attribute_exists(pk) AND tenant = :tenant AND (attribute_not_exists(events) OR size(events) < :max)',
              ExpressionAttributeValues: { ':none': [], ':event': [event], ':tenant': tenant, ':max': max },
            },
          },
          bumpStamp(table),
        ],
      });
      return outcome.ok;
    },
    async removeEvent(tenant, name, index, eventId) {
      if (!Number.isInteger(index) || index < 0) return false;
      const outcome = await transactWithRetry(ddb, {
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: channelKey(name),
              UpdateExpression: `REMOVE events[${index}]`,
              ConditionExpression: `tenant = :tenant AND events[${index}].id = :id`,
              ExpressionAttributeValues: { ':tenant': tenant, ':id': eventId },
            },
          },
          bumpStamp(table),
        ],
      });
      return outcome.ok;
    },
    changeStamp: () => readStamp(ddb, table, STAMP_KEY),
    async listAll() {
      const items = await queryAll(ddb, {
        TableName: table,
        IndexName: 'byKind',
        KeyConditionExpression: 'kind = :k',
        ExpressionAttributeValues: { ':k': 'channel' },
      });
      return items.map(toChannel);
    },
  };
}
