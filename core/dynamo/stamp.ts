/**
 * A change stamp: a counter item that moves with every change readers must notice, so that they read one
 * item per interval instead of everything (docs/design.md "How the parts talk"). The channel service
 * moves its stamp inside the transaction that makes the change; the schedule service right after it.
 */
import { type DynamoDBDocumentClient, GetCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

type Key = Record<string, string | number>;

/** The increment, as an UpdateItem input or one Update action of a transaction. */
export const stampIncrement = (table: string, key: Key) =>
  ({
    TableName: table,
    Key: key,
    UpdateExpression: 'ADD stamp :one',
    ExpressionAttributeValues: { ':one': 1 },
  }) satisfies UpdateCommandInput;

/**
 * The stamp (0 before the first change). Eventually consistent, half a read unit: a stamp read a moment
 * stale is read again next interval, and what a reader reads after seeing it move is read consistently.
 */
export async function readStamp(ddb: DynamoDBDocumentClient, table: string, key: Key): Promise<number> {
  const res = await ddb.send(new GetCommand({ TableName: table, Key: key }));
  return Number(res.Item?.stamp ?? 0);
}
