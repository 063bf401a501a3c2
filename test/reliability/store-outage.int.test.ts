/**
 * What the APIs answer when DynamoDB stops answering: a DynamoDB Local this test started itself is frozen
 * (SIGSTOP), thawed (SIGCONT), then killed. Frozen or gone, every request is a 503 `store_unavailable`
 * with Retry-After within the configured AWS timeouts (here 2 attempts of at most 1 s), never a 500 and
 * never a hang until the Lambda times out; thawed, the same requests succeed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type Apis, startApis } from './support/apis';
import { DynamoDbSwitch, expectStoreUnavailable, OUTAGE_TIMEOUTS } from './support/dynamodb-outage';
import { type Probe, send } from './support/raw-http';

let apis: Apis;
let auth: Record<string, string>;
let dynamo: DynamoDbSwitch;

beforeAll(async () => {
  apis = await startApis(OUTAGE_TIMEOUTS, { ownDynamoDb: true });
  auth = await apis.operator('outage', 5);
  dynamo = new DynamoDbSwitch(apis.system.urls.dynamodb!);
  for (const probe of requests) expect((await call(probe)).status).toBeLessThan(300);
});

afterAll(async () => {
  // Never leave the JVM stopped, whatever failed.
  if (dynamo?.frozen) await dynamo.signal('SIGCONT');
  await apis?.stop();
});

interface Request extends Probe {
  name: string;
  api: 'channel' | 'schedule';
}

/** One request of each kind the APIs make: a channel list, a schedule get, list and conditional write. */
const requests: Request[] = [
  { name: 'GET /channel', api: 'channel', path: '/channel' },
  {
    name: 'POST /api/v1/channels',
    api: 'schedule',
    method: 'POST',
    path: '/api/v1/channels',
    body: { id: 'steady', title: 'S' },
  },
  { name: 'GET /api/v1/channels/{id}', api: 'schedule', path: '/api/v1/channels/steady' },
  { name: 'GET /api/v1/channels/{id}/schedule', api: 'schedule', path: '/api/v1/channels/steady/schedule' },
];

/** The request, with a client deadline far beyond the budget: a hang fails here instead of stalling. */
const call = (r: Request) =>
  send(r.api === 'channel' ? apis.channel : apis.schedule, {
    ...r,
    method: r.method ?? 'GET',
    headers: r.api === 'channel' ? auth : {},
    timeoutMs: 15_000,
  });

async function expectUnavailable(r: Request) {
  expectStoreUnavailable(await call(r));
}

describe('a frozen DynamoDB', () => {
  beforeAll(() => dynamo.signal('SIGSTOP'));

  it.each(requests)('$name answers 503 with Retry-After within the configured timeouts', async (r) => {
    await expectUnavailable(r);
  });
});

describe('a DynamoDB thawed again', () => {
  beforeAll(() => dynamo.signal('SIGCONT'));

  it.each(requests.filter((r) => r.method !== 'POST'))('$name succeeds again', async (r) => {
    await waitFor(
      () => call(r),
      (answer) => answer.status === 200,
      { timeoutMs: 20_000, what: `${r.name} to answer 200` },
    );
  });
});

describe('a DynamoDB that is gone', () => {
  beforeAll(() => dynamo.signal('SIGKILL'));

  it.each(requests)('$name answers 503 with Retry-After, not 500', async (r) => {
    await expectUnavailable(r);
  });
});
