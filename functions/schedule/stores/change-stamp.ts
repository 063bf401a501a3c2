/**
 * The schedule service's change stamp: a counter that moves after every write that changes what an
 * engine plays (a channel created or deleted, entries written or removed). Engines read it through
 * `GET /api/v1/changes` every couple of seconds and read channels and schedules only when it moved
 * (docs/design.md "How the parts talk"). It is one item of the entries table under a reserved key:
 * entry partitions are `<tenant>#<channelId>`, so `~changes` (no `#`) is never a channel's.
 *
 * Bumped after the write, not in its transaction: the auto-scheduler writes many channels at once, and
 * one shared item in each of its transactions would make them cancel each other. A bump lost to a crash
 * between the two is healed by the engines' slow full read (and the channel's own `scheduleVersion`,
 * written in the same transaction as its entries, tells them which schedule moved).
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { readStamp, stampIncrement } from '../../../core/dynamo/stamp';
import { logger } from '../../../core/logger';

export interface ChangeStamp {
  /** The current stamp (0 before the first change). */
  read(): Promise<number>;
  /** Moves the stamp; a failure is logged, never thrown (the write it follows has happened). */
  bump(): Promise<void>;
}

export const CHANGES_KEY = { channelKey: '~changes', end_time: 0 } as const;

export function dynamoChangeStamp(ddb: DynamoDBDocumentClient, entriesTable: string): ChangeStamp {
  return {
    read: () => readStamp(ddb, entriesTable, CHANGES_KEY),
    async bump() {
      try {
        await ddb.send(new UpdateCommand(stampIncrement(entriesTable, CHANGES_KEY)));
      } catch (err) {
        logger.warn('schedule change stamp not bumped; engines see the change at their next full read', {
          err,
        });
      }
    },
  };
}
