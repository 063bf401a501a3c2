/**
 * Real jobs end to end: API -> DynamoDB + SQS -> dispatcher -> worker child process -> ffmpeg (libvmaf
 * 1.3.7 of @ffmpeg-installer) -> S3 -> compiled results. A 2 s reference keeps each job to seconds of
 * work; the failure paths use the same machinery.
 */
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../core/process/is-alive';
import { waitFor } from '../../core/wait-for';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { defaultModelDir } from '../../functions/autoabr/config/default-paths';
import type { Dispatcher } from '../../functions/autoabr/dispatcher/dispatch-loop';
import type { JobItem, WorkerInfo } from '../../functions/autoabr/domain/job';
import { parseJobMessage } from '../../functions/autoabr/domain/job-message';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import { startAutoabrDispatcher } from '../../functions/autoabr/entry/local-dispatcher';
import type { JobStore } from '../../functions/autoabr/ports/job-store';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud, testClients } from './support/cloud';
import { referenceClip } from './support/media';

/** The libvmaf 1.x model files kept in the repository: workers use them unless told otherwise. */
const MODEL_DIR = defaultModelDir();

let cloud: LocalCloud;
let api: Gateway;
let dispatcher: Dispatcher;
let s3: S3Client;
let sqs: SQSClient;
let jobs: JobStore;
let bucket: string;

beforeAll(async () => {
  cloud = await startCloud({
    AUTOABR_MAX_ATTEMPTS: '2',
    // The heartbeat timeout (60 s) and the lease (120 s) stay at their defaults: a killed worker's attempt ends
    // when its process exits, and a worker started on a loaded machine has taken over 15 s to its first
    // heartbeat (a sweep then took its job for silent and ran it a second time).
    AUTOABR_HEARTBEAT_MS: '500',
  });
  bucket = cloud.env.BUCKET_AUTOABR!;
  ({ s3, sqs } = testClients(cloud.env));
  const deps = buildApiDeps();
  jobs = deps.jobs;
  const put = (Key: string, Body: string | Buffer) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
  await put('refs/clip.mp4', await readFile(await referenceClip()));
  await put('refs/not-a-video.mp4', Buffer.from('this is not a video file '.repeat(200)));
  await put('settings/fast.json', JSON.stringify({ preset: 'veryfast' }));
  await put('settings/pipeline.json', JSON.stringify({ nSubsample: 5 }));
  api = await startApi(createAutoabrRoutes(() => deps));
  dispatcher = startAutoabrDispatcher({ intervalMs: 250 });
}, 180_000);

afterAll(async () => {
  await dispatcher?.stop();
  await api?.close();
  s3?.destroy();
  sqs?.destroy();
  await cloud?.stop();
});

async function submit(job: Record<string, unknown>): Promise<WorkerInfo> {
  const res = await fetch(`${api.url}/autoabr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      encodingSettingsUrl: `s3://${bucket}/settings/fast.json`,
      pipelineUrl: `s3://${bucket}/settings/pipeline.json`,
      job: {
        reference: `s3://${bucket}/refs/clip.mp4`,
        models: ['HD'],
        bitrates: [150000],
        resolutions: [{ width: 320, height: 180 }],
        ...job,
      },
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as WorkerInfo;
}

/** Polls `probe` until it gives a value (a job in the wanted state, say). */
const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 240_000): Promise<T> =>
  waitFor(probe, (value) => value !== undefined, { what, timeoutMs, intervalMs: 200 }) as Promise<T>;

async function info(id: string): Promise<WorkerInfo> {
  return (await (await fetch(`${api.url}/autoabr/${id}`)).json()) as WorkerInfo;
}

const finished = (id: string) =>
  until(`job ${id} to finish`, async () => {
    const job = await info(id);
    return job.status === 'INACTIVE' ? job : undefined;
  });

type ResultJson = {
  id: string;
  status: string;
  result: Record<string, Record<string, Record<string, number>>>;
};

interface Measurement {
  /** The job once finished. */
  job: WorkerInfo;
  /** How GET /autoabr listed it while it ran. */
  listedWhileRunning: WorkerInfo | undefined;
  /** Its compiled JSON result. */
  result: ResultJson;
  workerPid: number;
}

async function runMeasurementJob(): Promise<Measurement> {
  const submitted = await submit({
    name: 'e2e',
    models: ['HD', 'PhoneHD'],
    bitrates: [150000, 600000],
    resolutions: [
      { width: 320, height: 180 },
      { width: 640, height: 360 },
    ],
  });
  const running = await until('the job to run', async () => {
    const j = await jobs.get(submitted.id);
    return j?.phase === 'RUNNING' && j.worker ? j : undefined;
  });
  const active = (await (await fetch(`${api.url}/autoabr`)).json()) as { workers: WorkerInfo[] };
  const job = await finished(submitted.id);
  return {
    job,
    listedWhileRunning: active.workers.find((w) => w.id === submitted.id),
    result: (await (await fetch(`${api.url}/autoabr/result/e2e/`)).json()) as ResultJson,
    workerPid: Number(running.worker!.slice(4)),
  };
}

/** One job serves the next two suites: started by whichever runs first, awaited by both. */
let measurement: Promise<Measurement> | undefined;
const measured = () => {
  measurement ??= runMeasurementJob();
  return measurement;
};

describe('a measurement job', () => {
  let job: WorkerInfo;
  let result: ResultJson;
  let workerPid: number;
  let listedWhileRunning: WorkerInfo | undefined;

  beforeAll(async () => {
    ({ job, result, workerPid, listedWhileRunning } = await measured());
  }, 300_000);

  it('is listed among the active workers while it runs', () => {
    expect(listedWhileRunning?.status).toBe('ACTIVE');
    expect(listedWhileRunning?.runningTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('ends INACTIVE and SUCCEEDED, with every file done and its running time', () => {
    expect(job).toMatchObject({
      status: 'INACTIVE',
      phase: 'SUCCEEDED',
      attempts: 1,
      progress: { done: 8, total: 8 },
    });
    expect(job.error).toBeUndefined();
    expect(job.runningTimeMs).toBeGreaterThan(0);
  });

  it('lets its worker process exit once the job is recorded', async () => {
    expect(workerPid).toBeGreaterThan(0);
    await until('the worker to exit', async () => (isAlive(workerPid) ? undefined : true), 30_000);
  });

  it('is no longer listed among the active workers', async () => {
    const active = (await (await fetch(`${api.url}/autoabr`)).json()) as { workers: WorkerInfo[] };
    expect(active.workers.map((w) => w.id)).not.toContain(job.id);
  });

  it('uploads each libvmaf log to results/<name>/<model>/<W>x<H>_<bitrate>_vmaf.json', async () => {
    const obj = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: 'results/e2e/PhoneHD/640x360_600000_vmaf.json' }),
    );
    const log = JSON.parse(await obj.Body!.transformToString()) as {
      version: string;
      frames: unknown[];
      params: { subsample: number };
    };
    expect(log.version).toBe('1.3.7');
    expect(log.params.subsample).toBe(5);
    expect(log.frames.length).toBeGreaterThan(0);
  });

  it('indexes the scores of the files it uploaded, by their ETags', async () => {
    const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'results/e2e/.scores.json' }));
    const index = JSON.parse(await obj.Body!.transformToString()) as {
      entries: Record<string, { etag: string; score: number }>;
    };
    expect(Object.keys(index.entries)).toHaveLength(8);
    const head = await s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'results/e2e/HD/640x360_600000_vmaf.json' }),
    );
    expect(index.entries['HD/640x360_600000_vmaf.json']).toEqual({
      etag: head.ETag,
      score: result.result.e2e!.HD!['640x360_600000_vmaf.json'],
    });
  });
});

describe('the results of a measurement job', () => {
  let job: WorkerInfo;
  let result: ResultJson;

  beforeAll(async () => {
    ({ job, result } = await measured());
  }, 300_000);

  it('compiles the JSON result keyed by job name and model, {} for the model not measured', () => {
    expect(result.id).toBe(job.id);
    expect(result.status).toBe('INACTIVE');
    const e2e = result.result.e2e!;
    expect(Object.keys(e2e.HD!).sort()).toEqual([
      '320x180_150000_vmaf.json',
      '320x180_600000_vmaf.json',
      '640x360_150000_vmaf.json',
      '640x360_600000_vmaf.json',
    ]);
    expect(Object.keys(e2e.PhoneHD!)).toHaveLength(4);
    expect(e2e.UHD).toEqual({});
  });

  it('scores plausibly: within 0..100, and a higher bitrate at one resolution scores at least as high', () => {
    const e2e = result.result.e2e!;
    for (const model of ['HD', 'PhoneHD']) {
      const scores = e2e[model]!;
      for (const s of Object.values(scores)) expect(s).toBeGreaterThanOrEqual(0);
      for (const s of Object.values(scores)) expect(s).toBeLessThanOrEqual(100);
      for (const res of ['320x180', '640x360']) {
        expect(scores[`${res}_600000_vmaf.json`]!).toBeGreaterThanOrEqual(
          scores[`${res}_150000_vmaf.json`]! - 1,
        );
      }
    }
    // The phone model forgives more than the living-room one for the same encode.
    expect(e2e.PhoneHD!['320x180_150000_vmaf.json']!).toBeGreaterThanOrEqual(
      e2e.HD!['320x180_150000_vmaf.json']! - 1,
    );
  });

  it('serves the same scores as CSV and TSV rows', async () => {
    for (const format of ['csv', 'tsv'] as const) {
      const res = await fetch(`${api.url}/autoabr/result/e2e/?format=${format}`);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="e2e.${format}"`);
      const sep = format === 'csv' ? ',' : '\t';
      const [header, ...rows] = (await res.text()).trimEnd().split('\n');
      expect(header).toBe(['jobname', 'model', 'width', 'height', 'bitrate', 'score'].join(sep));
      expect(rows).toHaveLength(8);
      for (const row of rows) {
        const [name, model, w, h, b, score] = row.split(sep);
        expect(name).toBe('e2e');
        expect(Number(score)).toBe(result.result.e2e![model!]![`${w}x${h}_${b}_vmaf.json`]);
      }
      expect(rows.map((r) => r.split(sep)[1])).toEqual([
        'HD',
        'HD',
        'HD',
        'HD',
        'PhoneHD',
        'PhoneHD',
        'PhoneHD',
        'PhoneHD',
      ]);
    }
  });

  it('suggests a ladder and draws a chart from the measured points', async () => {
    const ladder = (await (await fetch(`${api.url}/autoabr/result/e2e/ladder`)).json()) as {
      models: Record<string, { hull: unknown[]; ladder: unknown[] }>;
    };
    expect(ladder.models.HD!.hull.length).toBeGreaterThan(0);
    expect(ladder.models.HD!.ladder.length).toBeGreaterThan(0);
    const svg = await (await fetch(`${api.url}/autoabr/result/e2e/HD?format=svg`)).text();
    expect(svg).toContain('>320x180</text>');
    expect(svg).toContain('>640x360</text>');
  });
});

async function dlqJobIds(): Promise<string[]> {
  const res = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: `${cloud.env.QUEUE_AUTOABR_JOBS}-dlq`,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 0,
    }),
  );
  return (res.Messages ?? []).map((m) => parseJobMessage(m.Body!) ?? '');
}

describe('a model the engine lacks', () => {
  it('records a clear error for that model and still scores the others', async () => {
    // A model folder with only vmaf_v0.6.1 (HD, PhoneHD): UHD's vmaf_4k_v0.6.1.pkl is missing.
    const dir = await mkdtemp(join(tmpdir(), 'autoabr-models-'));
    for (const f of ['vmaf_v0.6.1.pkl', 'vmaf_v0.6.1.pkl.model'])
      await symlink(join(MODEL_DIR, f), join(dir, f));
    process.env.VMAF_MODEL_DIR = dir; // read by the worker processes started from now on
    try {
      const job = await finished((await submit({ name: 'partial', models: ['HD', 'UHD'] })).id);
      expect(job).toMatchObject({ status: 'INACTIVE', phase: 'SUCCEEDED', progress: { done: 1, total: 1 } });
      expect(job.modelErrors?.UHD).toContain(join(dir, 'vmaf_4k_v0.6.1.pkl'));
      expect(job.modelErrors?.HD).toBeUndefined();
      const result = (await (await fetch(`${api.url}/autoabr/result/partial/`)).json()) as ResultJson;
      expect(Object.keys(result.result.partial!.HD!)).toEqual(['320x180_150000_vmaf.json']);
      expect(result.result.partial!.UHD).toEqual({});
    } finally {
      delete process.env.VMAF_MODEL_DIR;
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('failures', () => {
  it('fails a job whose reference does not exist, at once and with the URL in the error', async () => {
    const job = await finished(
      (await submit({ name: 'no-ref', reference: `s3://${bucket}/refs/missing.mp4` })).id,
    );
    expect(job).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', attempts: 1 });
    expect(job.error).toBe(`reference s3://${bucket}/refs/missing.mp4 not found`);
  }, 120_000);

  it('fails a job whose reference ffmpeg cannot read, with ffmpeg’s reason', async () => {
    const job = await finished(
      (await submit({ name: 'bad-ref', reference: `s3://${bucket}/refs/not-a-video.mp4` })).id,
    );
    expect(job).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', attempts: 1 });
    expect(job.error).toMatch(/^ffmpeg could not encode 320x180 @ 150000 b\/s: exit code 1: .*Invalid data/);
  }, 120_000);

  it('retries a job whose worker was killed, then fails it with the error and dead-letters it', async () => {
    const { id } = await submit({ name: 'killed', bitrates: [150000, 300000, 600000] });
    for (const attempt of [1, 2]) {
      const running = await until(`attempt ${attempt} to start`, async () => {
        const j = await jobs.get(id);
        return j?.phase === 'RUNNING' && j.attempts === attempt && j.worker?.startsWith('pid:')
          ? j
          : undefined;
      });
      process.kill(Number((running as JobItem).worker!.slice(4)), 'SIGKILL');
      if (attempt === 1) {
        const requeued = await until('the retry', async () => {
          const j = await jobs.get(id);
          return j && (j.phase === 'QUEUED' || j.attempts === 2) ? j : undefined;
        });
        expect(requeued.status).toBe('ACTIVE');
        expect(requeued.error).toMatch(/attempt 1 failed: worker pid:\d+ was killed \(SIGKILL\)/);
      }
    }
    const job = await finished(id);
    expect(job).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', attempts: 2 });
    expect(job.error).toMatch(
      /^failed after 2 attempts: worker pid:\d+ was killed \(SIGKILL\) before finishing$/,
    );
    expect(await dlqJobIds()).toContain(id);
  }, 180_000);
});
