/**
 * Reading a job output's result files a page at a time: list the keys below the output in order, keep
 * the ones named like results, and score each log. A score is taken from a cache only while the listed ETag matches: first
 * this instance's memory, then the output's stored index (domain/score-index.ts); the rest are
 * downloaded with bounded concurrency, and the index is updated with them.
 */
import type { Logger } from '../../../core/logger';
import { mapLimit } from '../../../core/map-limit';
import type { ScoredFile } from '../domain/compile-results';
import type { ModelName } from '../domain/models';
import { outputPrefix, parseResultKey, type ResultFile } from '../domain/result-keys';
import { indexKey, type ScoreIndex } from '../domain/score-index';
import { vmafScore } from '../domain/vmaf-log';
import type { ObjectStore } from '../ports/object-store';
import type { ScoreCache } from './score-cache';
import { loadIndex, mergeIndex } from './score-index-store';

export interface ResultLocation {
  bucket: string;
  prefix: string;
  output: string;
}

/** A single libvmaf log is a few hundred KB at most for a long clip; anything far bigger is not one. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

export type ListedResult = ResultFile & { key: string; relativeKey: string; etag: string };

/**
 * Keys that are not results (notes, the score index, stray uploads) a page may pass over before it
 * ends anyway: ten listing calls, so a folder full of them cannot hold a request until its Lambda
 * times out.
 */
const MAX_SKIPPED_PER_PAGE = 10_000;

export interface PageOptions {
  model?: ModelName;
  /** Continue after this key, relative to the output's folder (a validated cursor). */
  after?: string;
  /** Result files per page. */
  limit: number;
}

export interface ListedPage<T> {
  files: T[];
  /** The key (relative to the output's folder) to continue after; absent when nothing follows. */
  next?: string;
}

/** Up to `limit` result files below the output (or one model of it), in key order, after `after`. */
export async function listResultPage(
  objects: ObjectStore,
  loc: ResultLocation,
  { model, after, limit }: PageOptions,
): Promise<ListedPage<ListedResult>> {
  const base = outputPrefix(loc.prefix, loc.output);
  const files: ListedResult[] = [];
  let scanned = 0;
  let last: string | undefined;
  const listing = objects.list(loc.bucket, model ? `${base}${model}/` : base, after && `${base}${after}`);
  for await (const { key, etag } of listing) {
    // One more key exists: end the page here, and say where the next one starts.
    if (files.length >= limit || scanned >= limit + MAX_SKIPPED_PER_PAGE) return { files, next: last };
    const relativeKey = key.slice(base.length);
    scanned++;
    last = relativeKey;
    const file = parseResultKey(relativeKey);
    if (file) files.push({ ...file, key, relativeKey, etag });
  }
  return { files };
}

export interface ReadOptions extends PageOptions {
  concurrency: number;
  log: Logger;
  cache?: ScoreCache;
  /** Use and update the output's stored score index (default true). */
  useIndex?: boolean;
}

/** A page of the output's result files, scored. */
export async function readResults(
  objects: ObjectStore,
  loc: ResultLocation,
  options: ReadOptions,
): Promise<ListedPage<ScoredFile>> {
  const useIndex = options.useIndex ?? true;
  const idxKey = indexKey(loc.prefix, loc.output);
  const [page, index] = await Promise.all([
    listResultPage(objects, loc, options),
    useIndex ? loadIndex(objects, loc.bucket, idxKey, options.log) : Promise.resolve({} as ScoreIndex),
  ]);
  const learned: ScoreIndex = {};
  const scored = await mapLimit(page.files, options.concurrency, (file) =>
    scoreFile(objects, loc.bucket, file, { index, learned, options }),
  );
  if (useIndex) await mergeIndex(objects, loc.bucket, idxKey, learned, options.log);
  return { files: scored.filter((f): f is ScoredFile => f !== undefined), next: page.next };
}

interface ScoreSources {
  /** The stored index, as read before scoring. */
  index: ScoreIndex;
  /** Scores downloaded now, for the index. */
  learned: ScoreIndex;
  options: ReadOptions;
}

/** One file's score from memory, the index or the file itself; undefined for a file that is no log. */
async function scoreFile(
  objects: ObjectStore,
  bucket: string,
  { key, relativeKey, etag, ...file }: ListedResult,
  { index, learned, options }: ScoreSources,
): Promise<ScoredFile | undefined> {
  const id = `${bucket}/${key}`;
  const cached = options.cache?.get(id, etag);
  if (cached !== undefined) return { ...file, score: cached };
  const indexed = index[relativeKey];
  if (indexed && etag && indexed.etag === etag) {
    options.cache?.set(id, etag, indexed.score);
    return { ...file, score: indexed.score };
  }
  const text = await objects.getText({ bucket, key }, MAX_LOG_BYTES);
  try {
    const score = vmafScore(text);
    options.cache?.set(id, etag, score);
    if (etag) learned[relativeKey] = { etag, score };
    return { ...file, score };
  } catch (err) {
    options.log.warn('skipping unreadable result file', { key, err });
    return undefined;
  }
}
