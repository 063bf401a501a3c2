/**
 * The ECS clients (AutoABR's worker launcher, the engine fleet sizer) against an ECS endpoint on
 * loopback that accepts every request and never answers: each call fails within the bounds of
 * core/aws.ts (AWS_REQUEST_TIMEOUT_MS x AWS_MAX_ATTEMPTS) as an error the edge counts as a store being
 * unavailable, instead of hanging its Lambda; a retried RunTask carries the same idempotency token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../core/store-errors';
import { ecsClient } from '../../functions/autoabr/adapters/aws-clients';
import { EcsLauncher } from '../../functions/autoabr/adapters/ecs-launcher';
import { type JobItem, newJob } from '../../functions/autoabr/domain/job';
import { DEFAULT_ENCODING_SETTINGS, DEFAULT_PIPELINE } from '../../functions/autoabr/domain/settings';
import { EcsFleetSizer, fleetEcsClient } from '../../functions/fleet/fleet-sizer';
import { type HungEndpoint, startHungEndpoint } from './support/hung-endpoint';

const REQUEST_TIMEOUT_MS = 300;
const ATTEMPTS = 2;
/**
 * Every attempt timing out, the SDK's sub-second backoff, and room for a loaded machine (where a
 * unit test has taken ten times as long as alone): far short of a hang, which would last until the
 * Lambda's own timeout.
 */
const BUDGET_MS = ATTEMPTS * REQUEST_TIMEOUT_MS + 8000;

let ecs: HungEndpoint;
const saved = { ...process.env };

beforeAll(async () => {
  ecs = await startHungEndpoint();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ECS: ecs.url,
    AWS_REGION: 'eu-north-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Loopback connects at once; a short connect timeout would only race a stalled event loop.
    AWS_CONNECT_TIMEOUT_MS: '2000',
    AWS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    AWS_MAX_ATTEMPTS: String(ATTEMPTS),
  });
});

afterAll(async () => {
  process.env = saved;
  await ecs.close();
});

const job = (): JobItem =>
  newJob({
    id: '8d3c5c8e-2f4b-4a39-9d0e-6c1f0a7b2e51',
    spec: {
      name: 'clip',
      reference: 's3://media/clip.mp4',
      models: ['HD'],
      bitrates: [500_000],
      resolutions: [{ width: 640, height: 360 }],
    },
    encoding: DEFAULT_ENCODING_SETTINGS,
    pipeline: { ...DEFAULT_PIPELINE, resultBucket: 'media' },
    maxAttempts: 3,
    now: 0,
  });

/** How long `call` took to fail, and with what. */
async function failure(call: () => Promise<unknown>): Promise<{ err: unknown; elapsedMs: number }> {
  const started = Date.now();
  try {
    await call();
  } catch (err) {
    return { err, elapsedMs: Date.now() - started };
  }
  throw new Error('the call succeeded against an endpoint that never answers');
}

const launcher = () =>
  new EcsLauncher(
    {
      cluster: 'autoabr',
      taskDefinition: 'worker',
      container: 'worker',
      subnets: ['subnet-1'],
      securityGroups: [],
      assignPublicIp: false,
    },
    ecsClient({}),
  );

describe('the AutoABR worker launcher on a hung ECS endpoint', () => {
  it('fails a launch within the configured timeouts, as a store being unavailable', async () => {
    const { err, elapsedMs } = await failure(() => launcher().launch(job(), 1));
    expect(isStoreUnavailable(err), String(err)).toBe(true);
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });

  it('sends every try of one attempt’s RunTask with the same idempotency token', async () => {
    ecs.received.length = 0;
    await failure(() => launcher().launch(job(), 2));
    await expect.poll(() => ecs.received.length, { timeout: 10_000 }).toBe(ATTEMPTS);
    expect(ecs.received.map((r) => r.target)).toEqual(
      Array(ATTEMPTS).fill('AmazonEC2ContainerServiceV20141113.RunTask'),
    );
    expect(ecs.received.map((r) => JSON.parse(r.body).clientToken)).toEqual(
      Array(ATTEMPTS).fill('8d3c5c8e-2f4b-4a39-9d0e-6c1f0a7b2e51:2'),
    );
  });
});

describe('the engine fleet sizer on a hung ECS endpoint', () => {
  it('fails a resize within the configured timeouts, as a store being unavailable', async () => {
    const sizer = new EcsFleetSizer(fleetEcsClient(), 'engine', 'engine');
    const { err, elapsedMs } = await failure(() => sizer.resize(2, { trigger: 'test' }));
    expect(isStoreUnavailable(err), String(err)).toBe(true);
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });
});
