/**
 * Auto-schedulers ("mrss") in DynamoDB: one partition per tenant (the tenant's list is one Query),
 * and every item carries kind=mrss so the scheduler lists all feeds with one Query of the byKind
 * index instead of a Scan. The item also keeps the last fetch's validators and measured items.
 * A channel has at most one auto-scheduler: creating one marks the channel in the same transaction.
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  batchDelete,
  failedActionIndex,
  isTransactionConflict,
  queryAll,
  queryPage,
  writeIf,
} from '../../../core/dynamo/queries';
import type { Page, PageKey, PageRequest } from '../../../core/paging';
import type { Feed, FeedFetchState, FeedItem, StoredFeed } from '../model';
import { TENANT_ID_KEY } from './page-keys';

export type CreateFeedResult = 'created' | 'exists' | 'no-channel' | 'channel-has-feed';

export interface FeedKey {
  tenant: string;
  id: string;
}

export interface FeedStore {
  create(feed: Feed, nowMs: number): Promise<CreateFeedResult>;
  get(tenant: string, id: string): Promise<StoredFeed | undefined>;
  /** A page of the tenant's feeds, ordered by id. */
  list(tenant: string, page: PageRequest): Promise<Page<StoredFeed>>;
  /** Every feed of every tenant (the scheduler's work list). */
  listAll(): Promise<FeedKey[]>;
  /** False when there was no such feed. */
  remove(tenant: string, id: string): Promise<boolean>;
  /** Deletes the feeds bound to a channel (the channel itself is being deleted). */
  removeForChannel(tenant: string, channelId: string): Promise<number>;
  /** False when the feed was deleted meanwhile. */
  saveFetchState(tenant: string, id: string, state: FeedFetchState): Promise<boolean>;
}

const KIND = 'mrss';
/** DynamoDB items stop at 400 KB; measured items above this are not kept (the next read is a full GET). */
const MAX_STORED_ITEMS_BYTES = 300 * 1024;

function toStoredFeed(item: Record<string, unknown>): StoredFeed {
  const config = (item.config ?? {}) as { scheduleRetention?: unknown };
  const feed: StoredFeed = {
    id: String(item.id),
    tenant: String(item.tenant),
    url: String(item.url),
    channelId: String(item.channelId),
    config: { scheduleRetention: Number(config.scheduleRetention) },
  };
  if (typeof item.etag === 'string') feed.etag = item.etag;
  if (typeof item.lastModified === 'string') feed.lastModified = item.lastModified;
  if (Array.isArray(item.items)) feed.items = item.items as FeedItem[];
  if (typeof item.fetchedAt === 'number') feed.fetchedAt = item.fetchedAt;
  if (typeof item.lastError === 'string') feed.lastError = item.lastError;
  return feed;
}

/** The SET/REMOVE update for a fetch state; validators are dropped with items too large to keep. */
function fetchStateUpdate(state: FeedFetchState) {
  const fits = Buffer.byteLength(JSON.stringify(state.items ?? [])) <= MAX_STORED_ITEMS_BYTES;
  const values: Record<string, unknown> = {
    etag: fits ? state.etag : undefined,
    lastModified: fits ? state.lastModified : undefined,
    items: fits ? state.items : undefined,
    fetchedAt: state.fetchedAt,
    lastError: state.lastError,
  };
  const set = Object.keys(values).filter((k) => values[k] !== undefined);
  const remove = Object.keys(values).filter((k) => values[k] === undefined);
  const names = Object.fromEntries(Object.keys(values).map((k) => [`#${k}`, k]));
  const expression = [
    set.length ? `SET ${set.map((k) => `#${k} = :${k}`).join(', ')}` : '',
    remove.length ? `REMOVE ${remove.map((k) => `#${k}`).join(', ')}` : '',
  ].join(' ');
  return {
    UpdateExpression: expression.trim(),
    ExpressionAttributeNames: names,
    ...(set.length
      ? { ExpressionAttributeValues: Object.fromEntries(set.map((k) => [`:${k}`, values[k]])) }
      : {}),
  };
}

export function dynamoFeedStore(
  ddb: DynamoDBDocumentClient,
  table: string,
  channelsTable: string,
): FeedStore {
  const get = async (tenant: string, id: string) => {
    const res = await ddb.send(
      new GetCommand({ TableName: table, Key: { tenant, id }, ConsistentRead: true }),
    );
    return res.Item ? toStoredFeed(res.Item) : undefined;
  };

  return {
    get,
    async create(feed, nowMs) {
      try {
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: table,
                  Item: { ...feed, kind: KIND, feedKey: `${feed.tenant}#${feed.id}`, createdAt: nowMs },
                  ConditionExpression: 'attribute_not_exists(id)',
                },
              },
              {
                Update: {
                  TableName: channelsTable,
                  Key: { tenant: feed.tenant, id: feed.channelId },
                  UpdateExpression: 'SET feedId = :f',
                  ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(feedId)',
                  ExpressionAttributeValues: { ':f': feed.id },
                },
              },
            ],
          }),
        );
        return 'created';
      } catch (err) {
        if (!isTransactionConflict(err)) throw err;
        if (failedActionIndex(err) === 0 || (await get(feed.tenant, feed.id))) return 'exists';
        const channel = await ddb.send(
          new GetCommand({
            TableName: channelsTable,
            Key: { tenant: feed.tenant, id: feed.channelId },
            ConsistentRead: true,
          }),
        );
        return channel.Item ? 'channel-has-feed' : 'no-channel';
      }
    },
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
      return { items: page.items.map(toStoredFeed), next: page.next as PageKey | undefined };
    },
    async listAll() {
      const items = await queryAll(ddb, {
        TableName: table,
        IndexName: 'byKind',
        KeyConditionExpression: 'kind = :k',
        ExpressionAttributeValues: { ':k': KIND },
        ProjectionExpression: 'tenant, id',
      });
      return items.map((item) => ({ tenant: String(item.tenant), id: String(item.id) }));
    },
    async remove(tenant, id) {
      const feed = await get(tenant, id);
      if (!feed) return false;
      try {
        // Unbinding the channel in the same transaction lets it take a new auto-scheduler at once.
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: table,
                  Key: { tenant, id },
                  ConditionExpression: 'attribute_exists(id)',
                },
              },
              {
                Update: {
                  TableName: channelsTable,
                  Key: { tenant, id: feed.channelId },
                  UpdateExpression: 'REMOVE feedId',
                  ConditionExpression: 'feedId = :f',
                  ExpressionAttributeValues: { ':f': id },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (!isTransactionConflict(err)) throw err;
        // The channel is gone or bound elsewhere: only the feed item is left to delete.
        return writeIf(() =>
          ddb.send(
            new DeleteCommand({
              TableName: table,
              Key: { tenant, id },
              ConditionExpression: 'attribute_exists(id)',
            }),
          ),
        );
      }
    },
    async removeForChannel(tenant, channelId) {
      const items = await queryAll(ddb, {
        TableName: table,
        KeyConditionExpression: 'tenant = :t',
        FilterExpression: 'channelId = :c',
        ExpressionAttributeValues: { ':t': tenant, ':c': channelId },
        ProjectionExpression: 'tenant, id',
      });
      await batchDelete(ddb, table, items);
      return items.length;
    },
    saveFetchState(tenant, id, state) {
      return writeIf(() =>
        ddb.send(
          new UpdateCommand({
            TableName: table,
            Key: { tenant, id },
            ConditionExpression: 'attribute_exists(id)',
            ...fetchStateUpdate(state),
          }),
        ),
      );
    },
  };
}
