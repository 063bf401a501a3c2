/**
 * Cancelling a RUNNING job end to end: API -> DynamoDB + SQS -> dispatcher -> a real worker child
 * process running ffmpeg. Once cancelled, the worker's next fenced write is refused and it stops: its
 * process exits, and the job stays as the cancel left it (no progress, no success written over it).
 */
import { readFile } from 'node:fs/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from '../../core/process/is-alive';
import { waitFor } from '../../core/wait-for';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import type { Dispatcher } from '../../functions/autoabr/dispatcher/dispatch-loop';
import type { WorkerInfo } from '../../functions/autoabr/domain/job';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import { startAutoabrDispatcher } from '../../functions/autoabr/entry/local-dispatcher';
import type { JobStore } from '../../functions/autoabr/ports/job-store';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud, testClients } from './support/cloud';
import { referenceClip } from './support/media';

let cloud: LocalCloud;
let api: Gateway;
let dispatcher: Dispatcher;
let s3: S3Client;
let jobs: JobStore;
let bucket: string;

beforeAll(async () => {
  cloud = await startCloud({ AUTOABR_HEARTBEAT_MS: '500', AUTOABR_LEASE_SECONDS: '30' });
  bucket = cloud.env.BUCKET_AUTOABR!;
  ({ s3 } = testClients(cloud.env));
  const deps = buildApiDeps();
  jobs = deps.jobs;
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'refs/clip.mp4',
      Body: await readFile(await referenceClip()),
    }),
  );
  api = await startApi(createAutoabrRoutes(() => deps));
  dispatcher = startAutoabrDispatcher({ intervalMs: 250 });
}, 180_000);

afterAll(async () => {
  await dispatcher?.stop();
  await api?.close();
  s3?.destroy();
  await cloud?.stop();
});

it('stops the worker of a cancelled running job, which writes nothing more', async () => {
  const res = await fetch(`${api.url}/autoabr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      job: {
        name: 'cancel-me',
        reference: `s3://${bucket}/refs/clip.mp4`,
        models: ['HD'],
        // 16 rungs: seconds of work, far more than the time to cancel it
        bitrates: [100000, 150000, 200000, 250000, 300000, 350000, 400000, 450000],
        resolutions: [
          { width: 320, height: 180 },
          { width: 640, height: 360 },
        ],
      },
    }),
  });
  const { id } = (await res.json()) as WorkerInfo;
  const running = await waitFor(
    () => jobs.get(id),
    (j) => j?.phase === 'RUNNING' && j.worker?.startsWith('pid:') === true,
    { timeoutMs: 120_000, what: 'the job running in a worker', intervalMs: 100 },
  );
  const pid = Number(running!.worker!.slice('pid:'.length));

  const cancelled = await fetch(`${api.url}/autoabr/${id}/cancel`, { method: 'POST' });
  expect(cancelled.status).toBe(200);
  const answer = (await cancelled.json()) as WorkerInfo;
  expect(answer).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', error: 'cancelled' });

  await waitFor(
    async () => isAlive(pid),
    (alive) => !alive,
    { timeoutMs: 60_000, what: 'the worker process to exit', intervalMs: 100 },
  );
  const after = await jobs.get(id);
  expect(after).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', error: 'cancelled' });
  expect(after!.progress.done).toBe(answer.progress.done);
  expect(after!.progress.done).toBeLessThan(after!.progress.total);
}, 240_000);
