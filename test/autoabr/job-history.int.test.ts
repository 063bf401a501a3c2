/**
 * A tenant's AutoABR job history (`GET /autoabr/jobs`) and cancelling a job
 * (`POST /autoabr/{id}/cancel`) over HTTP, with tokens required, on the local cloud (DynamoDB Local,
 * the local SQS). No dispatcher runs: a RUNNING job is made by claiming its real queue message as the
 * dispatcher does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileKeyStore } from '../../core/auth/signing-key';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import type { WorkerInfo } from '../../functions/autoabr/domain/job';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import { issueOperatorToken } from '../../functions/channel/operator-token';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud } from './support/cloud';

let cloud: LocalCloud;
let api: Gateway;
let deps: ReturnType<typeof buildApiDeps>;
let bucket: string;
const tokens: Record<string, string> = {};

const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${api.url}${path}`, {
    method,
    headers: {
      'x-jwt': `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });

async function submit(name: string, token: string): Promise<string> {
  const res = await call('POST', '/autoabr', token, {
    job: {
      name,
      reference: `s3://${bucket}/refs/clip.mp4`,
      models: ['HD'],
      bitrates: [500000],
      resolutions: [{ width: 640, height: 360 }],
    },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as WorkerInfo).id;
}

const cancel = (id: string, token: string) => call('POST', `/autoabr/${id}/cancel`, token);
const history = async (token: string, query = '') =>
  ((await (await call('GET', `/autoabr/jobs${query}`, token)).json()) as { jobs: WorkerInfo[] }).jobs;

beforeAll(async () => {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'autoabr-history-')), 'jwt.jwk.json');
  cloud = await startCloud({ AUTOABR_REQUIRE_AUTH: 'true', JWT_KEY_FILE: keyFile, ONAIR_STAGE: 'test' });
  bucket = cloud.env.BUCKET_AUTOABR!;
  deps = buildApiDeps();
  api = await startApi(createAutoabrRoutes(() => deps));
  for (const tenant of ['hist-a', 'hist-b'])
    tokens[tenant] = (
      await issueOperatorToken(
        { tenant, maxChannels: 5, env: 'test', days: 1, autoabr: true },
        new FileKeyStore(keyFile),
      )
    ).token;
}, 180_000);

afterAll(async () => {
  await api?.close();
  await cloud?.stop();
});

describe('cancelling a job', () => {
  it('ends a queued job as FAILED with error "cancelled", and it leaves the active list', async () => {
    const id = await submit('cancel-queued', tokens['hist-a']!);
    const res = await cancel(id, tokens['hist-a']!);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: 'INACTIVE', phase: 'FAILED', error: 'cancelled' });
    const read = (await (await call('GET', `/autoabr/${id}`, tokens['hist-a']!)).json()) as WorkerInfo;
    expect(read).toMatchObject({ status: 'INACTIVE', phase: 'FAILED', error: 'cancelled' });
    const active = await history(tokens['hist-a']!, '?status=ACTIVE');
    expect(active.map((j) => j.id)).not.toContain(id);
  });

  it("ends a running attempt so that its worker's next fenced write is refused", async () => {
    const id = await submit('cancel-running', tokens['hist-a']!);
    // Claim it as the dispatcher does, with its real queue message.
    let receipt: string | undefined;
    for (let i = 0; i < 20 && !receipt; i++) {
      const msgs = await deps.queue.receive(10, 30);
      receipt = msgs.find((m) => m.jobId === id)?.receiptHandle;
      for (const m of msgs) if (m.jobId !== id) await deps.queue.release(m.receiptHandle, 0);
    }
    expect(receipt).toBeDefined();
    expect(await deps.jobs.claim(id, 1, receipt!, Date.now())).toMatchObject({ phase: 'RUNNING' });

    const res = await cancel(id, tokens['hist-a']!);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ phase: 'FAILED', error: 'cancelled', attempts: 1 });
    expect(await deps.jobs.heartbeat(id, 1, Date.now())).toBe(false);
    expect(await deps.jobs.progress(id, 1, 1, Date.now())).toBe(false);
  });

  it('refuses a job that is already over with 409 job_finished', async () => {
    const id = await submit('cancel-twice', tokens['hist-a']!);
    expect((await cancel(id, tokens['hist-a']!)).status).toBe(200);
    const again = await cancel(id, tokens['hist-a']!);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'job_finished' });
  });

  it("answers 404 for another tenant's job, which stays queued", async () => {
    const id = await submit('cancel-other', tokens['hist-a']!);
    expect((await cancel(id, tokens['hist-b']!)).status).toBe(404);
    const read = (await (await call('GET', `/autoabr/${id}`, tokens['hist-a']!)).json()) as WorkerInfo;
    expect(read.phase).toBe('QUEUED');
  });
});

describe('the job history', () => {
  it("lists the caller's finished jobs newest first, with their phase and error", async () => {
    const older = await submit('history-older', tokens['hist-b']!);
    const newer = await submit('history-newer', tokens['hist-b']!);
    await cancel(older, tokens['hist-b']!);
    await cancel(newer, tokens['hist-b']!);
    const jobs = await history(tokens['hist-b']!);
    const ids = jobs.map((j) => j.id);
    expect(ids.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(jobs.find((j) => j.id === older)).toMatchObject({
      status: 'INACTIVE',
      phase: 'FAILED',
      error: 'cancelled',
    });
  });

  it("never lists another tenant's jobs", async () => {
    const mine = await submit('history-mine', tokens['hist-a']!);
    await cancel(mine, tokens['hist-a']!);
    expect((await history(tokens['hist-b']!)).map((j) => j.id)).not.toContain(mine);
    expect((await history(tokens['hist-a']!)).map((j) => j.id)).toContain(mine);
  });

  it('lists the active jobs with ?status=ACTIVE', async () => {
    const id = await submit('history-active', tokens['hist-a']!);
    const active = await history(tokens['hist-a']!, '?status=ACTIVE');
    expect(active.find((j) => j.id === id)).toMatchObject({ status: 'ACTIVE', phase: 'QUEUED' });
  });

  it('pages with limit and cursor, continuing where the last page stopped', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push(await submit(`history-page-${n}`, tokens['hist-a']!));
    for (const id of ids) await cancel(id, tokens['hist-a']!);
    const seen: string[] = [];
    let query = '?limit=1';
    for (let i = 0; i < 50; i++) {
      const res = await call('GET', `/autoabr/jobs${query}`, tokens['hist-a']!);
      seen.push(...((await res.json()) as { jobs: WorkerInfo[] }).jobs.map((j) => j.id));
      const cursor = res.headers.get('x-next-cursor');
      if (!cursor) break;
      query = `?limit=1&cursor=${cursor}`;
    }
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
  });

  it('refuses an unknown status with 400 naming it', async () => {
    const res = await call('GET', '/autoabr/jobs?status=DONE', tokens['hist-a']!);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'status' });
  });

  it("refuses a cursor of the other status's list with 400 naming it", async () => {
    for (const n of [1, 2]) await submit(`history-cursor-${n}`, tokens['hist-a']!);
    const res = await call('GET', '/autoabr/jobs?status=ACTIVE&limit=1', tokens['hist-a']!);
    const cursor = res.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const wrong = await call('GET', `/autoabr/jobs?status=INACTIVE&cursor=${cursor}`, tokens['hist-a']!);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ field: 'cursor' });
  });
});
