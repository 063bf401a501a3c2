/**
 * Reading a job output's result files from S3: list every key below the output (page by page), keep the
 * ones named like results, and score each log. A score is taken from a cache only while the listed
 * ETag matches: first this instance's memory, then the output's stored index (score-index.ts); the rest
 * are downloaded with bounded concurrency, and the index is updated with them.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from '../../../core/logger';
import { mapLimit } from '../../../core/map-limit';
import { getText, listObjects } from '../adapters/s3-objects';
import type { ScoredFile } from '../domain/compile-results';
import type { ModelName } from '../domain/models';
import { outputPrefix, parseResultKey, type ResultFile } from '../domain/result-keys';
import { indexKey, loadIndex, mergeIndex, type ScoreIndex } from '../domain/score-index';
import { vmafScore } from '../domain/vmaf-log';

export interface ResultLocation {
  bucket: string;
  prefix: string;
  output: string;
}

/** A single libvmaf log is a few hundred KB at most for a long clip; anything far bigger is not one. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

/** Scores by `bucket/key` and ETag, oldest dropped first past `maxEntries`. */
export class ScoreCache {
  private readonly entries = new Map<string, { etag: string; score: number }>();

  constructor(private readonly maxEntries = 200_000) {}

  get(id: string, etag: string): number | undefined {
    const hit = this.entries.get(id);
    return hit && etag && hit.etag === etag ? hit.score : undefined;
  }

  set(id: string, etag: string, score: number): void {
    if (!etag) return;
    this.entries.delete(id);
    this.entries.set(id, { etag, score });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

export type ListedResult = ResultFile & { key: string; relativeKey: string; etag: string };

export async function listResultFiles(
  s3: S3Client,
  loc: ResultLocation,
  model?: ModelName,
): Promise<ListedResult[]> {
  const base = outputPrefix(loc.prefix, loc.output);
  const files: ListedResult[] = [];
  for await (const { key, etag } of listObjects(s3, loc.bucket, model ? `${base}${model}/` : base)) {
    const relativeKey = key.slice(base.length);
    const file = parseResultKey(relativeKey);
    if (file) files.push({ ...file, key, relativeKey, etag });
  }
  return files;
}

export interface ReadOptions {
  model?: ModelName;
  concurrency: number;
  log: Logger;
  cache?: ScoreCache;
  /** Use and update the output's stored score index (default true). */
  useIndex?: boolean;
}

export async function readResults(
  s3: S3Client,
  loc: ResultLocation,
  options: ReadOptions,
): Promise<ScoredFile[]> {
  const useIndex = options.useIndex ?? true;
  const idxKey = indexKey(loc.prefix, loc.output);
  const [files, index] = await Promise.all([
    listResultFiles(s3, loc, options.model),
    useIndex ? loadIndex(s3, loc.bucket, idxKey, options.log) : Promise.resolve({} as ScoreIndex),
  ]);
  const learned: ScoreIndex = {};
  const scored = await mapLimit(files, options.concurrency, async ({ key, relativeKey, etag, ...file }) => {
    const id = `${loc.bucket}/${key}`;
    const cached = options.cache?.get(id, etag);
    if (cached !== undefined) return { ...file, score: cached };
    const indexed = index[relativeKey];
    if (indexed && etag && indexed.etag === etag) {
      options.cache?.set(id, etag, indexed.score);
      return { ...file, score: indexed.score };
    }
    const text = await getText(s3, { bucket: loc.bucket, key }, MAX_LOG_BYTES);
    try {
      const score = vmafScore(text);
      options.cache?.set(id, etag, score);
      if (etag) learned[relativeKey] = { etag, score };
      return { ...file, score };
    } catch (err) {
      options.log.warn('skipping unreadable result file', { key, err });
      return undefined;
    }
  });
  if (useIndex) await mergeIndex(s3, loc.bucket, idxKey, learned, options.log);
  return scored.filter((f): f is ScoredFile => f !== undefined);
}
