/**
 * The dispatcher's decisions on the real local DynamoDB and SQS, with a launcher that only records what
 * it was asked to start (no ffmpeg here) and a clock the test moves.
 */
import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentClient, sqsClient } from '../../core/aws';
import { createLogger } from '../../core/logger';
import { waitFor } from '../../core/wait-for';
import { DynamoJobStore } from '../../functions/autoabr/adapters/dynamo-job-store';
import { SqsJobQueue } from '../../functions/autoabr/adapters/sqs-job-queue';
import { dispatchOnce } from '../../functions/autoabr/dispatcher/dispatch-once';
import type { DispatcherDeps } from '../../functions/autoabr/dispatcher/dispatcher-deps';
import { onWorkerExit } from '../../functions/autoabr/dispatcher/worker-exit';
import { type JobItem, newJob } from '../../functions/autoabr/domain/job';
import { parseJobMessage } from '../../functions/autoabr/domain/job-message';
import { DEFAULT_ENCODING_SETTINGS, DEFAULT_PIPELINE } from '../../functions/autoabr/domain/settings';
import type { WorkerLauncher } from '../../functions/autoabr/ports/worker-launcher';
import { failAttempt } from '../../functions/autoabr/worker/end-attempt';
import type { LocalCloud } from '../../local/cloud';
import { startCloud, testClients } from './support/cloud';

let cloud: LocalCloud;
let sqs: SQSClient;
let jobs: DynamoJobStore;
let queue: SqsJobQueue;
let clock: number;
let launched: { id: string; attempt: number }[];
let failLaunch: boolean;

const launcher: WorkerLauncher = {
  async launch(job, attempt) {
    if (failLaunch) throw new Error('no capacity');
    launched.push({ id: job.id, attempt });
    return `test:${job.id}:${attempt}`;
  },
  async stopAll() {},
};

const deps = (maxWorkers = 10): DispatcherDeps => ({
  jobs,
  queue,
  launcher,
  now: () => clock,
  log: createLogger({ test: 'dispatcher' }),
  config: { maxWorkers, leaseSeconds: 30, heartbeatTimeoutMs: 60_000, queuedTimeoutMs: 3_600_000 },
});

let seq = 0;
async function enqueue(over: { maxParallelWorkers?: number; maxAttempts?: number } = {}): Promise<JobItem> {
  const job = newJob({
    id: `job-${Date.now()}-${seq++}`,
    spec: {
      name: 'd',
      reference: 's3://b/r.mp4',
      models: ['HD'],
      bitrates: [1],
      resolutions: [{ width: 2, height: 2 }],
    },
    encoding: DEFAULT_ENCODING_SETTINGS,
    pipeline: { ...DEFAULT_PIPELINE, resultBucket: 'b', maxParallelWorkers: over.maxParallelWorkers ?? 10 },
    maxAttempts: over.maxAttempts ?? 3,
    now: clock,
  });
  await jobs.create(job);
  await queue.send(job.id);
  return job;
}

async function dlqJobIds(): Promise<string[]> {
  const res = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: `${cloud.env.QUEUE_AUTOABR_JOBS}-dlq`,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 0,
    }),
  );
  return (res.Messages ?? []).map((m) => parseJobMessage(m.Body!) ?? m.Body!);
}

/** Ends every running job, so each test starts with free room. */
async function finishAll(): Promise<void> {
  for (const job of await jobs.listActive()) {
    if (job.phase === 'RUNNING') await jobs.finish(job.id, job.attempts, { phase: 'SUCCEEDED', now: clock });
    else await jobs.failQueued(job.id, 'test cleanup', clock);
  }
  // Drain whatever is left on the queue.
  for (;;) {
    const msgs = await queue.receive(10, 1);
    if (!msgs.length) break;
    for (const m of msgs) await queue.delete(m.receiptHandle);
  }
}

beforeAll(async () => {
  cloud = await startCloud();
  sqs = testClients(cloud.env).sqs;
  jobs = new DynamoJobStore(documentClient(), cloud.env.TABLE_AUTOABR_JOBS!);
  queue = new SqsJobQueue(sqsClient(), cloud.env.QUEUE_AUTOABR_JOBS!);
}, 180_000);

afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});

beforeEach(async () => {
  clock = 1_000_000_000_000;
  launched = [];
  failLaunch = false;
  await finishAll();
  launched = [];
});

describe('starting workers', () => {
  it('starts one worker per queued job and marks each RUNNING as attempt 1', async () => {
    const a = await enqueue();
    const b = await enqueue();
    const report = await dispatchOnce(deps());
    expect(report.started.sort()).toEqual([a.id, b.id].sort());
    for (const id of [a.id, b.id]) {
      expect(await jobs.get(id)).toMatchObject({
        status: 'ACTIVE',
        phase: 'RUNNING',
        attempts: 1,
        worker: `test:${id}:1`,
      });
    }
  });

  it('never runs more workers than the global maximum; the rest wait on the queue', async () => {
    await enqueue();
    await enqueue();
    await enqueue();
    expect((await dispatchOnce(deps(2))).started).toHaveLength(2);
    expect((await dispatchOnce(deps(2))).started).toHaveLength(0);
    const running = (await jobs.listActive()).filter((j) => j.phase === 'RUNNING');
    await jobs.finish(running[0]!.id, 1, { phase: 'SUCCEEDED', now: clock });
    expect((await dispatchOnce(deps(2))).started).toHaveLength(1);
  });

  it("holds back a job while its pipeline's maximum of parallel workers is reached", async () => {
    const first = await enqueue({ maxParallelWorkers: 1 });
    const report = await dispatchOnce(deps());
    expect(report.started).toEqual([first.id]);
    const second = await enqueue({ maxParallelWorkers: 1 });
    const held = await dispatchOnce(deps());
    expect(held.started).toEqual([]);
    expect(held.deferred).toEqual([second.id]);
    expect((await jobs.get(second.id))?.phase).toBe('QUEUED');
  });
});

describe('workers that go silent or exit', () => {
  it('ends a silent worker’s attempt and retries the job on the next tick', async () => {
    const job = await enqueue();
    await dispatchOnce(deps());
    clock += 61_000; // past the heartbeat timeout
    const report = await dispatchOnce(deps());
    expect(report.swept).toEqual([job.id]);
    expect(await jobs.get(job.id)).toMatchObject({ status: 'ACTIVE', phase: 'QUEUED', attempts: 1 });
    expect((await jobs.get(job.id))?.error).toMatch(/attempt 1 failed: .*no heartbeat/);
    // The retry's message shows up after its delay, and the next ticks start attempt 2.
    await waitFor(
      async () => {
        await dispatchOnce(deps());
        return launched.some((l) => l.id === job.id && l.attempt === 2);
      },
      (started) => started,
      { what: 'attempt 2 to start', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(await jobs.get(job.id)).toMatchObject({ phase: 'RUNNING', attempts: 2 });
  });

  it('marks a job INACTIVE with an error and dead-letters its message when its last attempt goes silent', async () => {
    const job = await enqueue({ maxAttempts: 1 });
    await dispatchOnce(deps());
    clock += 61_000;
    await dispatchOnce(deps());
    const after = await jobs.get(job.id);
    expect(after).toMatchObject({ status: 'INACTIVE', phase: 'FAILED' });
    expect(after?.error).toMatch(/no heartbeat/);
    expect(await dlqJobIds()).toContain(job.id);
  });

  it('keeps a running job ACTIVE while its heartbeat is fresh', async () => {
    const job = await enqueue();
    await dispatchOnce(deps());
    clock += 50_000;
    expect(await jobs.heartbeat(job.id, 1, clock)).toBe(true);
    clock += 50_000;
    expect((await dispatchOnce(deps())).swept).toEqual([]);
    expect((await jobs.get(job.id))?.phase).toBe('RUNNING');
  });

  it('ends the attempt of a worker that exited without finishing', async () => {
    const job = await enqueue({ maxAttempts: 1 });
    await dispatchOnce(deps());
    await onWorkerExit(deps(), job.id, 1, null, 'SIGKILL');
    expect(await jobs.get(job.id)).toMatchObject({ status: 'INACTIVE', phase: 'FAILED' });
    expect((await jobs.get(job.id))?.error).toContain('was killed (SIGKILL)');
  });

  it('fences a late worker: once its attempt is over, its writes are refused', async () => {
    const job = await enqueue();
    await dispatchOnce(deps());
    clock += 61_000;
    await dispatchOnce(deps()); // attempt 1 declared dead, job requeued
    expect(await jobs.heartbeat(job.id, 1, clock)).toBe(false);
    expect(await jobs.progress(job.id, 1, 1, clock)).toBe(false);
    expect(await jobs.finish(job.id, 1, { phase: 'SUCCEEDED', now: clock })).toBe(false);
    expect((await jobs.get(job.id))?.phase).toBe('QUEUED');
  });
});

describe('failures and stray messages', () => {
  it('fails a job for good on a permanent error, without retrying', async () => {
    const job = await enqueue();
    await dispatchOnce(deps());
    const running = (await jobs.get(job.id))!;
    await failAttempt(deps(), running, 1, 'reference s3://b/r.mp4 not found', true);
    expect(await jobs.get(job.id)).toMatchObject({
      status: 'INACTIVE',
      phase: 'FAILED',
      error: 'reference s3://b/r.mp4 not found',
    });
    expect(await dlqJobIds()).not.toContain(job.id);
  });

  it('retries a job whose worker could not be started', async () => {
    const job = await enqueue();
    failLaunch = true;
    await dispatchOnce(deps());
    expect(await jobs.get(job.id)).toMatchObject({ phase: 'QUEUED', attempts: 1 });
    expect((await jobs.get(job.id))?.error).toContain('could not start a worker: no capacity');
  });

  it('dead-letters a message that is not a job', async () => {
    await sqs.send(new SendMessageCommand({ QueueUrl: cloud.env.QUEUE_AUTOABR_JOBS, MessageBody: 'hello' }));
    await dispatchOnce(deps());
    expect(await dlqJobIds()).toContain('hello');
  });

  it('drops a duplicate message of a job that already finished', async () => {
    const job = await enqueue();
    await dispatchOnce(deps());
    await jobs.finish(job.id, 1, { phase: 'SUCCEEDED', now: clock });
    await queue.send(job.id); // SQS delivers at least once
    expect((await dispatchOnce(deps())).started).toEqual([]);
    expect(await queue.receive(10, 1)).toEqual([]);
  });

  it('gives up on a job that waited in the queue past the queued timeout', async () => {
    const job = await enqueue({ maxParallelWorkers: 1 });
    const blocker = await enqueue({ maxParallelWorkers: 1 });
    await dispatchOnce(deps(1));
    const waiting = [job, blocker].find((j) => !launched.some((l) => l.id === j.id))!;
    clock += 3_600_001;
    await jobs.heartbeat(launched[0]!.id, 1, clock); // the running one is healthy
    const report = await dispatchOnce(deps(1));
    expect(report.swept).toContain(waiting.id);
    expect(await jobs.get(waiting.id)).toMatchObject({ status: 'INACTIVE', phase: 'FAILED' });
  });
});

describe('creating a job', () => {
  it('succeeds when a retried create finds its own first attempt already stored', async () => {
    const job = await enqueue();
    // What the SDK's retry of a put whose first answer timed out sends: the same job again.
    await expect(jobs.create(job)).resolves.toBeUndefined();
    expect((await jobs.get(job.id))?.createdAt).toBe(job.createdAt);
  });

  it('refuses another job under an id that is taken', async () => {
    const job = await enqueue();
    await expect(jobs.create({ ...job, createdAt: job.createdAt + 1 })).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
  });
});
