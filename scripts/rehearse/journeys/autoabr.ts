/**
 * An AutoABR job through the rehearsed API: a reference video put into the stack's bucket, a job made
 * with an operator token that has the `autoabr` scope (signed with the key the custom resource put into
 * SSM), dispatched by the dispatcher's schedule to the worker container (ECS stand-in), finished, and
 * its VMAF scores read back through the API.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { waitFor } from '../../../core/wait-for';
import { call } from '../api-client';
import type { Steps } from '../steps';

const run = promisify(execFile);

/** 3 s of a 640x360 test pattern, H.264 crf 18: a reference worth scoring, made in about a second. */
async function referenceVideo(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-rehearsal-ref-'));
  try {
    const file = join(dir, 'ref.mp4');
    await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-t',
        '3',
        '-c:v',
        'libx264',
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        file,
      ],
      { timeout: 60_000 },
    );
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface WorkerInfo {
  id: string;
  status: string;
  phase: string;
  error?: string;
}

export async function autoabrJourney(options: {
  steps: Steps;
  autoabrApi: string;
  token: string;
  bucket: string;
  s3Endpoint: string;
  region: string;
  notes: string[];
  timeoutMs?: number;
}): Promise<void> {
  const { steps, autoabrApi, token, bucket, notes } = options;
  await steps.run('autoabr: the reference video into the stack bucket (as the operator)', async () => {
    const s3 = new S3Client({
      region: options.region,
      endpoint: options.s3Endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'operator', secretAccessKey: 'rehearsal' },
    });
    try {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'refs/ref.mp4', Body: await referenceVideo() }),
      );
    } finally {
      s3.destroy();
    }
  });
  const job = await steps.run('autoabr: POST /autoabr (operator token with the autoabr scope)', () =>
    call<WorkerInfo>(`${autoabrApi}/autoabr`, {
      token,
      body: {
        job: {
          name: 'rehearsal',
          reference: `s3://${bucket}/refs/ref.mp4`,
          models: ['HD'],
          bitrates: [300000, 800000],
          resolutions: [{ width: 640, height: 360 }],
        },
      },
    }),
  );
  const done = await steps.run(
    'autoabr: the worker container finishes the job (dispatcher → ECS RunTask → podman)',
    () =>
      waitFor(
        () => call<WorkerInfo>(`${autoabrApi}/autoabr/${job.id}`, { token }),
        (info) => info.status === 'INACTIVE',
        { timeoutMs: options.timeoutMs ?? 600_000, intervalMs: 3000, what: `AutoABR job ${job.id} finished` },
      ),
  );
  if (done.phase !== 'SUCCEEDED') throw new Error(`AutoABR job ${job.id} ${done.phase}: ${done.error ?? ''}`);
  await steps.run('autoabr: VMAF scores read back through the API', async () => {
    const results = await call<{ result: Record<string, Record<string, Record<string, number>>> }>(
      `${autoabrApi}/autoabr/result/rehearsal/`,
      { token },
    );
    const scores = results.result.rehearsal?.HD ?? {};
    const values = Object.values(scores);
    if (values.length !== 2 || values.some((v) => !(v > 0 && v <= 100)))
      throw new Error(`expected 2 VMAF scores in (0, 100]: ${JSON.stringify(results)}`);
    notes.push(
      `VMAF (HD model): ${Object.entries(scores)
        .map(([file, score]) => `${file} ${score.toFixed(1)}`)
        .join(', ')}`,
    );
  });
}
