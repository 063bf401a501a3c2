/**
 * What the AutoABR API answers when DynamoDB stops answering: a DynamoDB Local this test started itself
 * is frozen (SIGSTOP), thawed (SIGCONT), then killed. Frozen or gone, every request is a 503
 * `store_unavailable` with Retry-After within the configured AWS timeouts (here 2 attempts of at most
 * 1 s), never a 500 and never a hang until the Lambda times out; thawed, the same requests succeed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type AutoabrSystem, jobRequest, startAutoabr } from '../autoabr/support/system';
import { DynamoDbSwitch, expectStoreUnavailable, OUTAGE_TIMEOUTS } from './support/dynamodb-outage';
import { type Probe, send } from './support/raw-http';

let abr: AutoabrSystem;
let dynamo: DynamoDbSwitch;

interface Request extends Probe {
  name: string;
}

/** One request of each kind the API makes of DynamoDB: a list, a get, a conditional put, an update. */
const requests: Request[] = [
  { name: 'GET /autoabr', path: '/autoabr' },
  { name: 'GET /autoabr/{id}', path: '/autoabr/{id}' },
  { name: 'POST /autoabr', method: 'POST', path: '/autoabr', body: jobRequest('during') },
  { name: 'GET /autoabr/result/{output}/', path: '/autoabr/result/steady/' },
  { name: 'DELETE /autoabr/cache', method: 'DELETE', path: '/autoabr/cache' },
];

let jobId: string;

/** The request, with a client deadline far beyond the budget: a hang fails here instead of stalling. */
const call = (r: Request) =>
  send(abr.url, { ...r, path: r.path.replace('{id}', jobId), method: r.method ?? 'GET', timeoutMs: 15_000 });

beforeAll(async () => {
  abr = await startAutoabr(OUTAGE_TIMEOUTS, { ownDynamoDb: true });
  dynamo = new DynamoDbSwitch(abr.system.urls.dynamodb!);
  const created = await send(abr.url, { method: 'POST', path: '/autoabr', body: jobRequest('steady') });
  expect(created.status, created.text).toBe(201);
  jobId = (created.json as { id: string }).id;
  for (const r of requests) expect((await call(r)).status, r.name).toBeLessThan(300);
});

afterAll(async () => {
  // Never leave the JVM stopped, whatever failed.
  if (dynamo?.frozen) await dynamo.signal('SIGCONT');
  await abr?.stop();
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

  it.each(requests)('$name succeeds again', async (r) => {
    await waitFor(
      () => call(r),
      (answer) => answer.status >= 200 && answer.status < 300,
      { timeoutMs: 20_000, what: `${r.name} to succeed` },
    );
  });
});

describe('a DynamoDB that is gone', () => {
  beforeAll(() => dynamo.signal('SIGKILL'));

  it.each(requests)('$name answers 503 with Retry-After, not 500', async (r) => {
    await expectUnavailable(r);
  });
});
