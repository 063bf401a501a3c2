/**
 * The real local stand-ins for the schedule tests: DynamoDB Local (with every table of
 * core/resources.ts) and its environment assigned to process.env before any SDK client
 * exists. Each vitest file runs in its own process, so each gets its own in-memory cloud.
 */
import { type LocalCloud, startLocalCloud } from '../../../local/cloud';

export async function startCloudForTests(): Promise<LocalCloud> {
  // Warnings the tests provoke on purpose (skipped entries, refused feeds) would bury the results.
  process.env.LOG_LEVEL ??= 'silent';
  const cloud = await startLocalCloud();
  Object.assign(process.env, cloud.env);
  return cloud;
}
