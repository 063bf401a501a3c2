/** DynamoDB idioms shared by every store: paging a Query, batch deletes, condition and transaction errors. */
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
