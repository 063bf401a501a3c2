/**
 * The AutoABR API over HTTP on the local cloud: heartbeat, job creation and validation, settings
 * documents from S3 and the cache every instance shares.
 */
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud, testClients } from './support/cloud';

let cloud: LocalCloud;
let api: Gateway;
let other: Gateway; // a second API instance (another Lambda container)
let s3: S3Client;
let sqs: SQSClient;
let bucket: string;

const body = (over: Record<string, unknown> = {}, job: Record<string, unknown> = {}) => ({
  job: {
    name: 'api-test',
    reference: `s3://${bucket}/refs/clip.mp4`,
    models: ['HD'],
    bitrates: [500000],
    resolutions: [{ width: 640, height: 360 }],
    ...job,
  },
  ...over,
});

const post = (gw: Gateway, payload: unknown) =>
  fetch(`${gw.url}/autoabr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

const putDoc = (key: string, doc: unknown) =>
  s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: typeof doc === 'string' ? doc : JSON.stringify(doc),
    }),
  );

beforeAll(async () => {
  // No dispatcher runs here: jobs stay QUEUED, which is what these tests look at.
  cloud = await startCloud({ AUTOABR_CACHE_CHECK_MS: '300' });
  bucket = cloud.env.BUCKET_AUTOABR!;
  ({ s3, sqs } = testClients(cloud.env));
  const apiDeps = buildApiDeps();
  api = await startApi(createAutoabrRoutes(() => apiDeps));
  const otherDeps = buildApiDeps();
  other = await startApi(createAutoabrRoutes(() => otherDeps));
}, 180_000);

afterAll(async () => {
  await api?.close();
  await other?.close();
  s3?.destroy();
  sqs?.destroy();
  await cloud?.stop();
});

describe('heartbeat', () => {
  it('answers GET / with 200', async () => {
    const res = await fetch(`${api.url}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'healthy', service: 'autoabr' });
  });
});

describe('creating a job', () => {
  it('answers 201 with the job id and status ACTIVE, and queues it', async () => {
    const res = await post(api, body());
    expect(res.status).toBe(201);
    const job = (await res.json()) as { id: string; status: string; phase: string; runningTimeMs: number };
    expect(job).toMatchObject({ status: 'ACTIVE', phase: 'QUEUED', runningTimeMs: 0 });
    expect(res.headers.get('location')).toBe(`/autoabr/${job.id}`);

    const got = await fetch(`${api.url}/autoabr/${job.id}`);
    expect(await got.json()).toMatchObject({ id: job.id, status: 'ACTIVE', progress: { done: 0, total: 1 } });

    const list = (await (await fetch(`${api.url}/autoabr`)).json()) as { workers: { id: string }[] };
    expect(list.workers.map((w) => w.id)).toContain(job.id);

    const messages = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: cloud.env.QUEUE_AUTOABR_JOBS,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 1,
      }),
    );
    expect(messages.Messages?.map((m) => JSON.parse(m.Body!).jobId)).toContain(job.id);
  });

  it('answers 404 for a job that does not exist', async () => {
    const res = await fetch(`${api.url}/autoabr/00000000-0000-0000-0000-000000000000`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it.each([
    ['job.name', { name: '../etc' }],
    ['job.reference', { reference: 'https://example.com/ref.mp4' }],
    ['job.models.0', { models: ['SD'] }],
    ['job.bitrates.0', { bitrates: [-1] }],
    ['job.resolutions.0.width', { resolutions: [{ width: 641, height: 360 }] }],
    ['job.resolutions.0.height', { resolutions: [{ width: 640, height: 4322 }] }],
  ])('answers 400 naming %s when it is invalid, and creates nothing', async (field, job) => {
    const before = ((await (await fetch(`${api.url}/autoabr`)).json()) as { workers: unknown[] }).workers
      .length;
    const res = await post(api, body({}, job));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', field });
    const after = ((await (await fetch(`${api.url}/autoabr`)).json()) as { workers: unknown[] }).workers
      .length;
    expect(after).toBe(before);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await fetch(`${api.url}/autoabr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
  });
});

describe('settings documents', () => {
  it('stores the documents a job names, with defaults filled in', async () => {
    await putDoc('settings/enc.json', { preset: 'veryfast', rateControl: { mode: 'CBR' } });
    await putDoc('settings/pipe.json', { nSubsample: 5, resultPrefix: 'team/results' });
    const res = await post(
      api,
      body({
        encodingSettingsUrl: `s3://${bucket}/settings/enc.json`,
        pipelineUrl: `s3://${bucket}/settings/pipe.json`,
      }),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const job = await buildApiDeps().jobs.get(id);
    expect(job?.encoding).toMatchObject({ preset: 'veryfast', codec: 'h264', rateControl: { mode: 'CBR' } });
    expect(job?.pipeline).toMatchObject({
      nSubsample: 5,
      resultPrefix: 'team/results',
      resultBucket: bucket,
    });
  });

  it('answers 400 naming the field whose document does not exist', async () => {
    const res = await post(api, body({ pipelineUrl: `s3://${bucket}/settings/missing.json` }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'pipelineUrl' });
  });

  it('answers 400 for a document that is not JSON or not valid', async () => {
    await putDoc('settings/broken.json', 'codec: h264');
    await putDoc('settings/wrong.json', { codec: 'mpeg2' });
    const broken = await post(api, body({ encodingSettingsUrl: `s3://${bucket}/settings/broken.json` }));
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      field: 'encodingSettingsUrl',
      message: expect.stringContaining('not JSON'),
    });
    const wrong = await post(api, body({ encodingSettingsUrl: `s3://${bucket}/settings/wrong.json` }));
    expect(await wrong.json()).toMatchObject({
      field: 'encodingSettingsUrl',
      message: expect.stringContaining('codec'),
    });
  });

  it('answers 400 for a pipeline whose task size Fargate refuses, naming the field', async () => {
    await putDoc('settings/too-small.json', { taskSize: { cpu: 1024, memoryMiB: 1024 } });
    const res = await post(api, body({ pipelineUrl: `s3://${bucket}/settings/too-small.json` }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'bad_request',
      field: 'pipelineUrl',
      message: expect.stringContaining('taskSize.memoryMiB: Fargate CPU 1024 takes memory 2048-8192 MiB'),
    });
  });

  it('keeps serving a cached document until the cache is cleared, on every instance', async () => {
    const url = `s3://${bucket}/settings/cached.json`;
    await putDoc('settings/cached.json', { nSubsample: 2 });
    const jobs = buildApiDeps().jobs;
    const created = async (gw: Gateway) => {
      const res = await post(gw, body({ pipelineUrl: url }));
      expect(res.status).toBe(201);
      return (await jobs.get(((await res.json()) as { id: string }).id))!.pipeline.nSubsample;
    };
    expect(await created(api)).toBe(2);
    expect(await created(other)).toBe(2);

    await putDoc('settings/cached.json', { nSubsample: 9 });
    expect(await created(api)).toBe(2); // cached
    expect(await created(other)).toBe(2);

    const cleared = await fetch(`${api.url}/autoabr/cache`, { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toMatchObject({ cleared: true, generation: expect.any(Number) });
    expect(await created(api)).toBe(9);
    // The other instance trusts its view of the generation for AUTOABR_CACHE_CHECK_MS (300 ms here),
    // then sees the new one and loads the document afresh.
    const seen = await waitFor(
      () => created(other),
      (n) => n === 9,
      { what: 'the other instance to serve the fresh document', timeoutMs: 10_000 },
    );
    expect(seen).toBe(9);
  });
});

describe('result paths', () => {
  it('redirects the slashless result path to the one with the slash, keeping the query', async () => {
    const res = await fetch(`${api.url}/autoabr/result/clip?format=csv`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/autoabr/result/clip/?format=csv');
  });

  it('answers 400 for an unknown format or model', async () => {
    const format = await fetch(`${api.url}/autoabr/result/clip/?format=xlsx`);
    expect(format.status).toBe(400);
    expect(await format.json()).toMatchObject({ field: 'format' });
    const model = await fetch(`${api.url}/autoabr/result/clip/SD`);
    expect(await model.json()).toMatchObject({ field: 'model' });
  });

  it('draws an SVG only for one model', async () => {
    expect((await fetch(`${api.url}/autoabr/result/clip/?format=svg`)).status).toBe(400);
    const svg = await fetch(`${api.url}/autoabr/result/clip/HD?format=svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await svg.text()).toContain('<svg');
  });
});
