/**
 * The channel and schedule APIs as `npm start` runs them (their Lambda handlers behind the local
 * gateway, on DynamoDB Local and fauxqs), for the reliability suites. The schedule API is addressed as
 * `localhost:<port>`: its tenant is the Host header.
 */
import { issueOperatorToken } from '../../../functions/channel/operator-token';
import { type RunningSystem, startSystem } from '../../../local/system';
import { sharedDynamoDb } from '../../support/run/shared-dynamodb';

export interface Apis {
  system: RunningSystem;
  /** http://localhost:<port> of the channel API. */
  channel: string;
  /** http://localhost:<port> of the schedule API (its routes are under /api/v1). */
  schedule: string;
  /** `x-jwt` headers of an operator token for a tenant of its own, allowed `maxChannels`. */
  operator(tenant: string, maxChannels?: number): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export async function startApis(
  env: Record<string, string> = {},
  { ownDynamoDb = false }: { ownDynamoDb?: boolean } = {},
): Promise<Apis> {
  const system = await startSystem({
    // A suite that stops DynamoDB Local on purpose stops its own, never the run's.
    sharedDynamoDb: ownDynamoDb ? undefined : sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['channel', 'schedule'],
    env: {
      LOG_LEVEL: 'silent',
      // No first fill on POST /mrss: these suites never serve the feeds they name.
      SCHEDULE_FILL_ON_CREATE_MS: '0',
      SCHEDULE_INTERVAL_SECONDS: '3600',
      ...env,
    },
  });
  return {
    system,
    channel: system.urls.channel!,
    schedule: system.urls.schedule!.replace(/\/api\/v1$/, ''),
    operator: async (tenant, maxChannels = 10) => {
      const { token } = await issueOperatorToken({ tenant, maxChannels, env: 'test', days: 1 });
      return { 'x-jwt': `Bearer ${token}` };
    },
    stop: () => system.stop(),
  };
}
