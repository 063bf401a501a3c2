/**
 * The worker keeps the output's score index up to date as it writes results: a compile while the job
 * runs (or right after) finds every file uploaded so far already scored, and downloads none of them.
 * Runs measure() with a fake ffmpeg (it writes a libvmaf log where the score command says) and an
 * in-memory object store.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger';
import { newJob } from '../../functions/autoabr/domain/job';
import { indexKey, parseIndex } from '../../functions/autoabr/domain/score-index';
import { encodingSettingsSchema, pipelineSchema } from '../../functions/autoabr/domain/settings';
import type { RunFfmpeg } from '../../functions/autoabr/ports/ffmpeg-runner';
import {
  type ListedObject,
  ObjectNotFoundError,
  type ObjectStore,
} from '../../functions/autoabr/ports/object-store';
import { measure } from '../../functions/autoabr/worker/measure';
import type { WorkerDeps } from '../../functions/autoabr/worker/worker-deps';

class MemoryObjects implements ObjectStore {
  readonly objects = new Map<string, { text: string; etag: string }>();
  async getText({ bucket, key }: { bucket: string; key: string }): Promise<string> {
    const o = this.objects.get(`${bucket}/${key}`);
    if (!o) throw new ObjectNotFoundError(key);
    return o.text;
  }

  async downloadToFile(_loc: unknown, path: string): Promise<number> {
    await writeFile(path, 'reference');
    return 9;
  }

  async putText({ bucket, key }: { bucket: string; key: string }, text: string): Promise<string> {
    const etag = `"${createHash('md5').update(text).digest('hex')}"`;
    this.objects.set(`${bucket}/${key}`, { text, etag });
    return etag;
  }

  async *list(bucket: string, prefix: string): AsyncIterable<ListedObject> {
    for (const [id, o] of [...this.objects].sort(([a], [b]) => a.localeCompare(b)))
      if (id.startsWith(`${bucket}/${prefix}`)) yield { key: id.slice(bucket.length + 1), etag: o.etag };
  }
}

/** Writes a one-frame libvmaf log at every `log_path=` of a score command; an encode just succeeds. */
const fakeFfmpeg: RunFfmpeg = async (args) => {
  for (const arg of args)
    for (const m of arg.matchAll(/log_path=([^:,;[\]']+)/g))
      await writeFile(m[1]!, JSON.stringify({ frames: [{ frameNum: 0, metrics: { vmaf: 90 } }] }));
  return { code: 0, signal: null, stdout: '', stderr: '' };
};

describe('the worker writing results', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'score-index-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("has each rung's scores in the output's index before it encodes the next rung", async () => {
    const objects = new MemoryObjects();
    const job = newJob({
      id: 'job-1',
      spec: {
        name: 'out',
        reference: 's3://bucket/ref.mp4',
        models: ['HD'],
        bitrates: [300_000, 600_000, 900_000],
        resolutions: [{ width: 640, height: 360 }],
      },
      encoding: encodingSettingsSchema.parse({}),
      pipeline: { ...pipelineSchema.parse({}), resultBucket: 'bucket' },
      maxAttempts: 1,
      now: 0,
    });
    const idx = indexKey(job.pipeline.resultPrefix, job.name);
    const indexedWhenEncoding: string[][] = [];
    const runFfmpeg: RunFfmpeg = async (args, signal) => {
      // An encode (no libvmaf filter): what a compile would find in the index at this moment.
      if (!args.some((a) => a.includes('libvmaf'))) {
        const stored = objects.objects.get(`bucket/${idx}`);
        indexedWhenEncoding.push(stored ? Object.keys(parseIndex(stored.text)).sort() : []);
      }
      return fakeFfmpeg(args, signal);
    };
    const deps = {
      objects,
      runFfmpeg,
      engine: async () => ({ ffmpegPath: 'ffmpeg', libvmaf: 'v2', modelDir: dir, unavailable: {} }),
      jobs: { setTotal: async () => true, progress: async () => true },
      now: () => 0,
      log: createLogger(),
      workDir: dir,
      cores: 1,
      maxReferenceBytes: 1e9,
    } as unknown as WorkerDeps;

    await measure(deps, job, 1, dir, new AbortController().signal);

    expect(indexedWhenEncoding).toEqual([
      [],
      ['HD/640x360_300000_vmaf.json'],
      ['HD/640x360_300000_vmaf.json', 'HD/640x360_600000_vmaf.json'],
    ]);
    const final = parseIndex(objects.objects.get(`bucket/${idx}`)!.text);
    expect(Object.keys(final)).toHaveLength(3);
    for (const [key, entry] of Object.entries(final))
      expect(entry).toEqual({ etag: objects.objects.get(`bucket/results/out/${key}`)?.etag, score: 90 });
  });
});
