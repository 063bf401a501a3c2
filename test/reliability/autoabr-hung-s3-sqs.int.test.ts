/**
 * What the AutoABR API answers when S3 and SQS stop answering (its DynamoDB still does): both point at
 * an endpoint on loopback that takes every request and never answers. Reading results, loading a
 * settings document and queueing a job each end within the configured AWS timeouts (here 2 attempts of
 * at most 1 s) as a 503 with Retry-After, never a 500 or a 502 that says "do not retry".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud } from '../autoabr/support/cloud';
import { type HungEndpoint, startHungEndpoint } from '../autoabr/support/hung-endpoint';
import { jobRequest } from '../autoabr/support/system';
import { type Answer, send } from './support/raw-http';

/** Every attempt timing out, the SDK's backoff between them, and room for a loaded machine. */
const BUDGET_MS = 2 * 1000 + 2500;

let hung: HungEndpoint;
let cloud: LocalCloud;
let api: Gateway;

beforeAll(async () => {
  hung = await startHungEndpoint();
  // The local cloud's DynamoDB, but S3 and SQS on the endpoint that never answers.
  cloud = await startCloud({
    AWS_ENDPOINT_URL_S3: hung.url,
    AWS_ENDPOINT_URL_SQS: hung.url,
    AWS_CONNECT_TIMEOUT_MS: '500',
    AWS_REQUEST_TIMEOUT_MS: '1000',
    AWS_MAX_ATTEMPTS: '2',
  });
  const deps = buildApiDeps();
  api = await startApi(createAutoabrRoutes(() => deps));
}, 180_000);

afterAll(async () => {
  await api?.close();
  await cloud?.stop();
  await hung?.close();
});

function expectRetryable(answer: Answer, code: string) {
  expect(answer.status, answer.text.slice(0, 200)).toBe(503);
  expect(answer.headers['retry-after']).toMatch(/^\d+$/);
  expect(answer.json).toMatchObject({ code });
  expect(answer.elapsedMs).toBeLessThan(BUDGET_MS);
}

describe('S3 that never answers', () => {
  it.each([
    ['every model', '/autoabr/result/clip/'],
    ['one model as CSV', '/autoabr/result/clip/HD?format=csv'],
    ['a ladder', '/autoabr/result/clip/ladder'],
  ])('makes reading the results of %s a 503 store_unavailable with Retry-After', async (_what, path) => {
    expectRetryable(await send(api.url, { path, timeoutMs: 15_000 }), 'store_unavailable');
  });

  it('makes loading a settings document a 503 store_unavailable with Retry-After', async () => {
    const body = { ...jobRequest('with-settings'), pipelineUrl: 's3://media/settings/pipeline.json' };
    const answer = await send(api.url, { method: 'POST', path: '/autoabr', body, timeoutMs: 15_000 });
    expectRetryable(answer, 'store_unavailable');
  });
});

describe('SQS that never answers', () => {
  it('makes queueing a job a 503 queue_unavailable with Retry-After, the job marked FAILED', async () => {
    const answer = await send(api.url, {
      method: 'POST',
      path: '/autoabr',
      body: jobRequest('unqueued'),
      timeoutMs: 15_000,
    });
    expectRetryable(answer, 'queue_unavailable');
    const listed = await send(api.url, { path: '/autoabr' });
    const names = (listed.json as { workers: { name: string }[] }).workers.map((w) => w.name);
    expect(names).not.toContain('unqueued');
  });
});
