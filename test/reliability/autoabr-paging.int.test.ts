/**
 * The AutoABR API's growing lists come in pages: the ACTIVE jobs (GET /autoabr) and an output's result
 * files are walked to the end through `Link: <...>; rel="next"`, with none lost and none repeated, on
 * DynamoDB Local and fauxqs through the real handler; no page outgrows a Lambda response, however
 * large its jobs are.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../core/aws';
import { mapLimit } from '../../core/map-limit';
import { bucketName, buckets, tableName, tables } from '../../core/resources';
import { DynamoJobStore } from '../../functions/autoabr/adapters/dynamo-job-store';
import { newJob } from '../../functions/autoabr/domain/job';
import { DEFAULT_ENCODING_SETTINGS, DEFAULT_PIPELINE } from '../../functions/autoabr/domain/settings';
import { testClients } from '../autoabr/support/cloud';
import { type AutoabrSystem, jobRequest, startAutoabr } from '../autoabr/support/system';
import { type Answer, send } from './support/raw-http';

/** A Lambda function's response payload limit. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

let abr: AutoabrSystem;

beforeAll(async () => {
  abr = await startAutoabr();
});

afterAll(async () => {
  await abr?.stop();
});

interface Walk {
  pages: Answer[];
}

/** Every page from `path` on, following rel="next"; each page's two cursors must agree. */
async function walk(path: string): Promise<Walk> {
  const walked: Walk = { pages: [] };
  for (let next: string | undefined = path; next; ) {
    const page = await send(abr.url, { path: next });
    expect(page.status, page.text.slice(0, 200)).toBe(200);
    walked.pages.push(page);
    const link = /^<([^>]+)>; rel="next"$/.exec(String(page.headers.link ?? ''));
    next = link?.[1];
    const cursor = next && new URL(next, abr.url).searchParams.get('cursor');
    expect(page.headers['x-next-cursor']).toBe(cursor || undefined);
    expect(walked.pages.length).toBeLessThan(200);
  }
  return walked;
}

interface Worker {
  id: string;
  name: string;
  createdAt: number;
}
const workersOf = (w: Walk) => w.pages.flatMap((p) => (p.json as { workers: Worker[] }).workers);

describe('the ACTIVE jobs', () => {
  let created: string[];

  beforeAll(async () => {
    created = [];
    for (let i = 1; i <= 25; i++) {
      const res = await send(abr.url, {
        method: 'POST',
        path: '/autoabr',
        body: jobRequest(`page-${String(i).padStart(2, '0')}`),
      });
      expect(res.status, res.text).toBe(201);
      created.push((res.json as Worker).id);
    }
  });

  it('walks all 25 in pages of 7, each once, oldest first', async () => {
    const walked = await walk('/autoabr?limit=7');
    expect(walked.pages.map((p) => (p.json as { workers: unknown[] }).workers.length)).toEqual([7, 7, 7, 4]);
    const workers = workersOf(walked);
    expect(new Set(workers.map((w) => w.id)).size).toBe(workers.length);
    expect(new Set(workers.map((w) => w.id))).toEqual(new Set(created));
    const times = workers.map((w) => w.createdAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('answers all 25 in the default page, with no next page', async () => {
    const page = await send(abr.url, { path: '/autoabr' });
    expect((page.json as { workers: unknown[] }).workers).toHaveLength(25);
    expect(page.headers.link).toBeUndefined();
    expect(page.headers['x-next-cursor']).toBeUndefined();
  });
});

describe('ACTIVE jobs too large for one response', () => {
  it('never answers a page larger than a Lambda response, and loses none', async () => {
    const store = new DynamoJobStore(createDocumentClient(), tableName(tables.autoabrJobs));
    // 20 jobs of ~300 KB each (an error message near DynamoDB's item limit): 6 MB together.
    const big = Array.from({ length: 20 }, (_, i) => ({
      ...newJob({
        id: crypto.randomUUID(),
        spec: { ...jobRequest(`big-${i}`).job, models: ['HD' as const] },
        encoding: DEFAULT_ENCODING_SETTINGS,
        pipeline: { ...DEFAULT_PIPELINE, resultBucket: 'media' },
        maxAttempts: 3,
        now: Date.now(),
      }),
      error: 'e'.repeat(300_000),
    }));
    for (const job of big) await store.create(job);

    const walked = await walk('/autoabr?limit=1000');
    expect(walked.pages.length).toBeGreaterThan(1);
    for (const page of walked.pages) expect(Buffer.byteLength(page.text)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    const ids = workersOf(walked).map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const job of big) expect(ids).toContain(job.id);
  });
});

// A libvmaf 1.x log (no pools) whose harmonic mean is exactly `score`: every frame scores it.
const log = (score: number) =>
  JSON.stringify({
    version: '1.3.7',
    frames: [0, 1].map((n) => ({ frameNum: n, metrics: { vmaf: score } })),
  });

describe('an output’s result files', () => {
  /** 2 models x 5 resolutions x 5 bitrates, plus files that are not results. */
  const files = ['HD', 'PhoneHD'].flatMap((model) =>
    [180, 360, 540, 720, 1080].flatMap((h) =>
      [1, 2, 3, 4, 5].map((b) => ({
        model,
        name: `${(h * 16) / 9}x${h}_${b * 100_000}_vmaf.json`,
        score: h / 20 + b,
      })),
    ),
  );

  beforeAll(async () => {
    const { s3 } = testClients(abr.system.env);
    const bucket = bucketName(buckets.autoabr);
    const puts = [
      ...files.map((f) => ({ Key: `results/paged/${f.model}/${f.name}`, Body: log(f.score) })),
      { Key: 'results/paged/HD/notes.txt', Body: 'not a result' },
      { Key: 'results/paged/PhoneHD/zz-not-a-result.json', Body: '{}' },
    ];
    await mapLimit(puts, 16, (p) => s3.send(new PutObjectCommand({ Bucket: bucket, ...p })));
    s3.destroy();
  });

  it('walks all 50 as JSON in pages of 7, each once with its score', async () => {
    const walked = await walk('/autoabr/result/paged/?limit=7');
    const seen: string[] = [];
    for (const page of walked.pages) {
      const byModel = (page.json as { result: { paged: Record<string, Record<string, number>> } }).result
        .paged;
      expect(Object.keys(byModel)).toEqual(['PhoneHD', 'HD', 'UHD']);
      for (const [model, scores] of Object.entries(byModel))
        for (const [name, score] of Object.entries(scores)) {
          seen.push(`${model}/${name}`);
          expect(score).toBeCloseTo(files.find((f) => f.model === model && f.name === name)!.score, 9);
        }
    }
    expect(walked.pages.length).toBeGreaterThanOrEqual(8);
    expect(seen.sort()).toEqual(files.map((f) => `${f.model}/${f.name}`).sort());
  });

  it('walks one model’s 25 as CSV in pages of 4, each row once, the query kept', async () => {
    const walked = await walk('/autoabr/result/paged/HD?format=csv&limit=4');
    const rows: string[] = [];
    for (const page of walked.pages) {
      expect(page.headers['content-type']).toBe('text/csv; charset=utf-8');
      const [header, ...body] = page.text.trimEnd().split('\n');
      expect(header).toBe('jobname,model,width,height,bitrate,score');
      rows.push(...body);
    }
    expect(walked.pages.map((p) => p.text.trimEnd().split('\n').length - 1).slice(0, 6)).toEqual([
      4, 4, 4, 4, 4, 4,
    ]);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows.map((r) => r.split(',').slice(1, 5).join(',')).sort()).toEqual(
      files
        .filter((f) => f.model === 'HD')
        .map((f) => {
          const [, w, h, b] = /^(\d+)x(\d+)_(\d+)_/.exec(f.name)!;
          return `HD,${w},${h},${b}`;
        })
        .sort(),
    );
  });
});
