/**
 * Compiling results straight from the local S3: more than one ListObjectsV2 page, parallel fetches,
 * models without files, and files that are not results.
 */
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLimit } from '../../core/map-limit';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud, testClients } from './support/cloud';

// A libvmaf 1.x log (no pools) whose harmonic mean is exactly `score`: every frame scores it.
const log = (score: number) =>
  JSON.stringify({
    version: '1.3.7',
    frames: [0, 1].map((n) => ({ frameNum: n, metrics: { vmaf: score } })),
  });

let cloud: LocalCloud;
let api: Gateway;
let bucket: string;

// 1,100 files: 2 models x 11 resolutions x 50 bitrates, score derived from the rung.
const HEIGHTS = [144, 180, 216, 270, 360, 432, 540, 576, 720, 900, 1080];
const BITRATES = Array.from({ length: 50 }, (_, i) => 100_000 * (i + 1));
const scoreOf = (h: number, b: number) => Math.min(100, Math.round((h / 12 + b / 100_000) * 100) / 100);
const MODELS = ['HD', 'PhoneHD'] as const;

beforeAll(async () => {
  // This suite checks what is compiled, not how fast: fauxqs runs in this process, and on a loaded
  // machine 1,100 cold reads can leave a socket silent past the default 4 s (a 503 then).
  cloud = await startCloud({ AWS_REQUEST_TIMEOUT_MS: '20000' });
  bucket = cloud.env.BUCKET_AUTOABR!;
  const { s3 } = testClients(cloud.env);
  const puts = MODELS.flatMap((model) =>
    HEIGHTS.flatMap((h) =>
      BITRATES.map((b) => ({
        Key: `results/big/${model}/${(h * 16) / 9}x${h}_${b}_vmaf.json`,
        Body: log(scoreOf(h, b)),
      })),
    ),
  );
  puts.push({ Key: 'results/big/HD/notes.txt', Body: 'not a result' });
  puts.push({ Key: 'results/big/HD/10x10_1_vmaf.json', Body: 'not json either' });
  puts.push({ Key: 'results/bigger/HD/640x360_1_vmaf.json', Body: log(1) }); // another output sharing the prefix
  await mapLimit(puts, 32, (p) => s3.send(new PutObjectCommand({ Bucket: bucket, ...p })));
  s3.destroy();
  const deps = buildApiDeps();
  api = await startApi(createAutoabrRoutes(() => deps));
}, 180_000);

async function restore(): Promise<void> {
  const { s3 } = testClients(cloud.env);
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'results/big/HD/640x360_100000_vmaf.json',
      Body: log(scoreOf(360, 100_000)),
    }),
  );
  s3.destroy();
}

afterAll(async () => {
  await api?.close();
  await cloud?.stop();
});

describe('compiling 1,100 result files from S3', () => {
  it('returns every file of every model, past the first 1,000 keys', async () => {
    const res = await fetch(`${api.url}/autoabr/result/big/`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const body = JSON.parse(text) as {
      id: unknown;
      status: string;
      result: Record<string, Record<string, Record<string, number>>>;
    };
    expect(body.id).toBeNull(); // no job of that name was ever created
    const big = body.result.big!;
    expect(Object.keys(big.HD!)).toHaveLength(550);
    expect(Object.keys(big.PhoneHD!)).toHaveLength(550);
    expect(big.UHD).toEqual({});
    expect(big.HD!['1280x720_2500000_vmaf.json']).toBe(scoreOf(720, 2_500_000));
  });

  it('writes one CSV row per file, sorted by model, height and bitrate', async () => {
    const res = await fetch(`${api.url}/autoabr/result/big/?format=csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="big.csv"');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines).toHaveLength(1101);
    expect(lines[1]).toBe(`big,HD,256,144,100000,${scoreOf(144, 100_000)}`);
    expect(lines[2]).toBe(`big,HD,256,144,200000,${scoreOf(144, 200_000)}`);
    expect(lines[551]).toBe(`big,PhoneHD,256,144,100000,${scoreOf(144, 100_000)}`);
    const keys = lines.slice(1).map((l) => l.split(','));
    const sorted = [...keys].sort((a, b) =>
      a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : Number(a[3]) - Number(b[3]) || Number(a[4]) - Number(b[4]),
    );
    expect(keys).toEqual(sorted);
  });

  it('limits the table to one model', async () => {
    const res = await fetch(`${api.url}/autoabr/result/big/PhoneHD?format=tsv`);
    expect(res.headers.get('content-type')).toBe('text/tab-separated-values; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="big_PhoneHD.tsv"');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines).toHaveLength(551);
    expect(lines.slice(1).every((l) => l.split('\t')[1] === 'PhoneHD')).toBe(true);
  });

  it('sees a result file rewritten since the previous request', async () => {
    const first = (await (await fetch(`${api.url}/autoabr/result/big/HD`)).json()) as {
      result: { big: { HD: Record<string, number> } };
    };
    expect(first.result.big.HD['640x360_100000_vmaf.json']).toBe(scoreOf(360, 100_000));
    const { s3 } = testClients(cloud.env);
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'results/big/HD/640x360_100000_vmaf.json',
        Body: log(12.5),
      }),
    );
    s3.destroy();
    const second = (await (await fetch(`${api.url}/autoabr/result/big/HD`)).json()) as typeof first;
    expect(second.result.big.HD['640x360_100000_vmaf.json']).toBe(12.5);
    await restore();
  });

  it('gives {} for a model without files', async () => {
    const res = await fetch(`${api.url}/autoabr/result/big/UHD`);
    expect(await res.json()).toMatchObject({ result: { big: { UHD: {} } } });
  });

  it('gives every model {} for an output nobody wrote', async () => {
    const res = await fetch(`${api.url}/autoabr/result/nothing-here/`);
    expect(await res.json()).toEqual({
      id: null,
      status: 'INACTIVE',
      result: { 'nothing-here': { PhoneHD: {}, HD: {}, UHD: {} } },
    });
  });
});

describe('the score index', () => {
  it('stores a score index of the files it downloaded, each entry with the file’s ETag', async () => {
    await (await fetch(`${api.url}/autoabr/result/big/`)).text();
    const { s3 } = testClients(cloud.env);
    const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'results/big/.scores.json' }));
    const head = await s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'results/big/HD/1280x720_2500000_vmaf.json' }),
    );
    const index = JSON.parse(await obj.Body!.transformToString()) as {
      entries: Record<string, { etag: string; score: number }>;
    };
    s3.destroy();
    expect(Object.keys(index.entries)).toHaveLength(1100);
    expect(index.entries['HD/1280x720_2500000_vmaf.json']).toEqual({
      etag: head.ETag,
      score: scoreOf(720, 2_500_000),
    });
  });

  it('trusts an index entry only while its ETag matches the file', async () => {
    const key = 'PhoneHD/640x360_200000_vmaf.json';
    const { s3 } = testClients(cloud.env);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `results/big/${key}` }));
    const putIndex = (entries: Record<string, unknown>) =>
      s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: 'results/big/.scores.json',
          Body: JSON.stringify({ version: 1, entries }),
        }),
      );
    // A fresh API instance (nothing in memory) must take the score from the index...
    await putIndex({ [key]: { etag: head.ETag, score: 42 } });
    // Dependencies built afresh for every request: each one is a new instance, with nothing in memory.
    const fresh = await startApi(createAutoabrRoutes(() => buildApiDeps()));
    try {
      const viaIndex = (await (await fetch(`${fresh.url}/autoabr/result/big/PhoneHD`)).json()) as {
        result: { big: { PhoneHD: Record<string, number> } };
      };
      expect(viaIndex.result.big.PhoneHD['640x360_200000_vmaf.json']).toBe(42);
      // ...and ignore it once the file no longer has that ETag.
      await putIndex({ [key]: { etag: '"stale"', score: 42 } });
      const viaFile = (await (
        await fetch(`${fresh.url}/autoabr/result/big/PhoneHD`)
      ).json()) as typeof viaIndex;
      expect(viaFile.result.big.PhoneHD['640x360_200000_vmaf.json']).toBe(scoreOf(360, 200_000));
    } finally {
      await fresh.close();
      s3.destroy();
    }
  });
});

describe('ladders', () => {
  it('suggests a ladder per model from the hull', async () => {
    const res = await fetch(`${api.url}/autoabr/result/big/ladder?target=90&step=10`);
    const body = (await res.json()) as {
      models: Record<string, { hull: { bitrate: number }[]; ladder: { score: number }[] }>;
    };
    expect(Object.keys(body.models)).toEqual(['PhoneHD', 'HD']);
    const ladder = body.models.HD!.ladder;
    for (let i = 1; i < ladder.length; i++)
      expect(ladder[i]!.score - ladder[i - 1]!.score).toBeGreaterThanOrEqual(10);
  });
});
