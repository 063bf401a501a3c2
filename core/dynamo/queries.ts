/** DynamoDB idioms shared by every store: reading a Query whole or by pages, batch puts and deletes, condition and transaction errors. */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/** Every item of a Query, following LastEvaluatedKey. */
export async function queryAll(ddb: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * A page must fit a Lambda response (6 MB) whatever its items hold: stored items are measured as JSON
 * (at least the size of any view of them) and a page stops before it would pass this.
 */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

export interface QueryPageOptions {
  limit: number;
  /** The key to continue after (a validated cursor). */
  after?: Item;
  /** The attributes of a key of this Query: the table's, plus the index's when it reads an index. */
  keyAttributes: readonly string[];
  maxBytes?: number;
}

/**
 * One page of a Query: at most `limit` items after `after`, and the key to continue after when more
 * may follow (the last page may then be empty). Each call asks DynamoDB for at most the items still
 * missing, so when the page is full every item it evaluated was returned and LastEvaluatedKey is the
 * last item's key, filter or not.
 */
export async function queryPage(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  { limit, after, keyAttributes, maxBytes = MAX_PAGE_BYTES }: QueryPageOptions,
): Promise<{ items: Item[]; next?: Item }> {
  const items: Item[] = [];
  let bytes = 0;
  let ExclusiveStartKey = after;
  do {
    const page = await ddb.send(
      new QueryCommand({ ...input, ExclusiveStartKey, Limit: limit - items.length }),
    );
    for (const item of page.Items ?? []) {
      bytes += Buffer.byteLength(JSON.stringify(item));
      if (bytes > maxBytes && items.length > 0) {
        const last = items[items.length - 1]!;
        return { items, next: Object.fromEntries(keyAttributes.map((k) => [k, last[k]])) };
      }
      items.push(item);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return { items, next: ExclusiveStartKey };
}

const BATCH = 25;

/** Deletes items by key, 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchDelete(
  ddb: DynamoDBDocumentClient,
  table: string,
  keys: readonly Item[],
): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH) {
    let requests = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      if (attempt > 8) throw new Error(`batch delete on ${table} left ${requests.length} items unprocessed`);
      const res = await ddb.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (res.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

/** Puts items, 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchPut(
  ddb: DynamoDBDocumentClient,
  table: string,
  items: readonly Item[],
): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) {
    let requests = items.slice(i, i + BATCH).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      if (attempt > 8) throw new Error(`batch put on ${table} left ${requests.length} items unprocessed`);
      const res = await ddb.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (res.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

export const isConditionFailure = (err: unknown): boolean => err instanceof ConditionalCheckFailedException;

/** True when a transaction was cancelled because one of its conditions did not hold. */
export function isTransactionConflict(err: unknown): boolean {
  if (!(err instanceof TransactionCanceledException)) return false;
  const codes = (err.CancellationReasons ?? []).map((r) => r.Code);
  return codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict');
}

/** The index of the first action a cancelled transaction failed on, -1 when unknown. */
export function failedActionIndex(err: unknown): number {
  if (!(err instanceof TransactionCanceledException)) return -1;
  return (err.CancellationReasons ?? []).findIndex((r) => r.Code !== undefined && r.Code !== 'None');
}

/** Runs a conditional write; false when its condition did not hold (e.g. the item is gone). */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
