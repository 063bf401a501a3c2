/**
 * What the APIs answer when DynamoDB stops answering: a DynamoDB Local this test started itself is frozen
 * (SIGSTOP), thawed (SIGCONT), then killed. Frozen or gone, every request is a 503 `store_unavailable`
 * with Retry-After within the configured AWS timeouts (here 2 attempts of at most 1 s), never a 500 and
 * never a hang until the Lambda times out; thawed, the same requests succeed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type Apis, startApis } from './support/apis';
import { childProcessWith } from './support/process';
import { type Probe, send } from './support/raw-http';

const TIMEOUTS = { AWS_CONNECT_TIMEOUT_MS: '500', AWS_REQUEST_TIMEOUT_MS: '1000', AWS_MAX_ATTEMPTS: '2' };
/** Every attempt timing out, the SDK's backoff between them, and room for a loaded machine. */
const BUDGET_MS = 2 * 1000 + 2500;

let apis: Apis;
let auth: Record<string, string>;
let dynamoPid: number;
/** Whether this test has the JVM stopped right now: it must never be left so. */
let frozen = false;

function signal(name: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL') {
  process.kill(dynamoPid, name);
  frozen = name === 'SIGSTOP';
}

beforeAll(async () => {
  apis = await startApis(TIMEOUTS);
  auth = await apis.operator('outage', 5);
  const port = new URL(apis.system.urls.dynamodb!).port;
  const pid = childProcessWith(['DynamoDBLocal.jar', '-port', port]);
  if (!pid) throw new Error(`no DynamoDB Local child on port ${port}`);
  dynamoPid = pid;
  for (const probe of requests) expect((await call(probe)).status).toBeLessThan(300);
});

afterAll(async () => {
  // Never leave the JVM stopped, whatever failed.
  if (frozen) signal('SIGCONT');
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
  const answer = await call(r);
  expect(answer.status, answer.text.slice(0, 200)).toBe(503);
  expect(answer.headers['retry-after']).toMatch(/^\d+$/);
  expect(answer.json).toMatchObject({ code: 'store_unavailable' });
  expect(answer.elapsedMs).toBeLessThan(BUDGET_MS);
}

describe('a frozen DynamoDB', () => {
  beforeAll(() => {
    signal('SIGSTOP');
  });

  it.each(requests)('$name answers 503 with Retry-After within the configured timeouts', async (r) => {
    await expectUnavailable(r);
  });
});

describe('a DynamoDB thawed again', () => {
  beforeAll(() => {
    signal('SIGCONT');
  });

  it.each(requests.filter((r) => r.method !== 'POST'))('$name succeeds again', async (r) => {
    await waitFor(
      () => call(r),
      (answer) => answer.status === 200,
      { timeoutMs: 20_000, what: `${r.name} to answer 200` },
    );
  });
});

describe('a DynamoDB that is gone', () => {
  beforeAll(() => {
    signal('SIGKILL');
  });

  it.each(requests)('$name answers 503 with Retry-After, not 500', async (r) => {
    await expectUnavailable(r);
  });
});
