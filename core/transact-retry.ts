/**
 * One DynamoDB transaction, retried while it loses to a concurrent one. Concurrent transactions on one
 * item (a tenant's channel counter) cancel each other with `TransactionConflict`, and DynamoDB asks
 * the loser to retry; a failed condition is an answer, not something to retry.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** Either written, or refused: `failedAction` is the index of the first action whose condition failed. */
export type TransactOutcome = { ok: true } | { ok: false; failedAction: number };

const MAX_ATTEMPTS = 12;

/** Jittered exponential backoff, so the losers of one conflict do not collide again. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** Math.min(attempt, 5)));

/** One code per action of a cancelled transaction ('None' where it did not fail); undefined otherwise. */
export function cancellationCodes(err: unknown): string[] | undefined {
  if (!(err instanceof TransactionCanceledException)) return undefined;
  return (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

export async function transactWithRetry(
  ddb: DynamoDBDocumentClient,
  input: TransactWriteCommandInput,
): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ddb.send(new TransactWriteCommand(input));
      return { ok: true };
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      const failedAction = codes.indexOf('ConditionalCheckFailed');
      if (failedAction >= 0) return { ok: false, failedAction };
      if (attempt >= MAX_ATTEMPTS || !codes.includes('TransactionConflict')) throw err;
      await backoff(attempt);
    }
  }
}
