/**
 * The AutoABR API as `npm start` runs it (its Lambda handler behind the local gateway, on DynamoDB
 * Local and fauxqs), for the reliability suites. The dispatcher ticks once at start and then not for
 * ten minutes, so the jobs a suite creates stay ACTIVE and QUEUED: no worker runs.
 */
import { type RunningSystem, startSystem } from '../../../local/system';
import { sharedDynamoDb } from '../../support/run/shared-dynamodb';

export interface AutoabrSystem {
  system: RunningSystem;
  /** http://localhost:<port> of the AutoABR API. */
  url: string;
  stop(): Promise<void>;
}

export async function startAutoabr(
  env: Record<string, string> = {},
  { ownDynamoDb = false }: { ownDynamoDb?: boolean } = {},
): Promise<AutoabrSystem> {
  const system = await startSystem({
    // A suite that stops DynamoDB Local on purpose stops its own, never the run's.
    sharedDynamoDb: ownDynamoDb ? undefined : sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['autoabr'],
    env: { LOG_LEVEL: 'silent', AUTOABR_DISPATCH_INTERVAL_MS: '600000', ...env },
  });
  return { system, url: system.urls.autoabr!, stop: () => system.stop() };
}

/** A job request the API accepts, named `name` (the reference is not read until a worker runs). */
export const jobRequest = (name: string) => ({
  job: {
    name,
    reference: `s3://media/refs/${name}.mp4`,
    models: ['HD'],
    bitrates: [500_000],
    resolutions: [{ width: 640, height: 360 }],
  },
});
