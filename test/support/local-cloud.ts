/**
 * The one local cloud for tests: `npm start`'s own (local/cloud.ts: DynamoDB Local with every table of
 * core/resources.ts, fauxqs for S3 and SQS), on free ports, in memory. Its environment is applied to
 * process.env at once, before any SDK client of the code under test exists. Its tables live in the run's
 * shared DynamoDB Local under a prefix of their own (shared-dynamodb.ts); S3 and SQS are its own.
 */
import { type LocalCloud, startLocalCloud } from '../../local/cloud';
import { sharedDynamoDb } from './run/shared-dynamodb';

export type { LocalCloud, LocalCloudEndpoints } from '../../local/cloud';

/** Starts the cloud and applies its environment, then `extraEnv` (a suite's own settings). */
export async function startTestCloud(extraEnv: Record<string, string> = {}): Promise<LocalCloud> {
  const cloud = await startLocalCloud({ sharedDynamoDb: sharedDynamoDb() });
  Object.assign(process.env, cloud.env, extraEnv);
  // Warnings the tests provoke on purpose (skipped entries, refused feeds) would bury the results.
  process.env.LOG_LEVEL ??= 'silent';
  return cloud;
}
