/**
 * A per-output index of known scores, `<prefix>/<output>/.scores.json`: relative key -> { etag, score }.
 * Compiling 1,000 results means 1,000 GETs otherwise (about a millisecond of SDK work each, plus the
 * round trip). The index is only a cache: a listing is always taken, and an entry counts only while
 * its ETag matches the listed object, so a rewritten or new file is always downloaded. The worker
 * writes entries for the files it uploads; the API adds the ones it had to download. Concurrent
 * writers can drop each other's entries, which only costs a download later.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from '../../../core/logger';
import { getText, isNotFound, putText } from '../adapters/s3-objects';
import { outputPrefix } from './result-keys';

export interface IndexEntry {
  etag: string;
  score: number;
}

export type ScoreIndex = Record<string, IndexEntry>;

export const INDEX_NAME = '.scores.json';
export const indexKey = (prefix: string, output: string): string =>
  `${outputPrefix(prefix, output)}${INDEX_NAME}`;

const MAX_INDEX_BYTES = 32 * 1024 * 1024;

function parseIndex(text: string): ScoreIndex {
  const json = JSON.parse(text) as { entries?: unknown };
  const out: ScoreIndex = {};
  if (json && typeof json.entries === 'object' && json.entries) {
    for (const [k, v] of Object.entries(json.entries as Record<string, unknown>)) {
      const e = v as Partial<IndexEntry>;
      if (typeof e?.etag === 'string' && typeof e.score === 'number')
        out[k] = { etag: e.etag, score: e.score };
    }
  }
  return out;
}

/** The index, or {} when there is none or it cannot be read (the index never fails a request). */
export async function loadIndex(s3: S3Client, bucket: string, key: string, log: Logger): Promise<ScoreIndex> {
  try {
    return parseIndex(await getText(s3, { bucket, key }, MAX_INDEX_BYTES));
  } catch (err) {
    if (!isNotFound(err)) log.warn('ignoring unreadable score index', { bucket, key, err });
    return {};
  }
}

export async function saveIndex(
  s3: S3Client,
  bucket: string,
  key: string,
  entries: ScoreIndex,
  log: Logger,
): Promise<void> {
  try {
    await putText(s3, { bucket, key }, JSON.stringify({ version: 1, entries }), 'application/json');
  } catch (err) {
    log.warn('could not save the score index', { bucket, key, err });
  }
}

/** Adds entries to the stored index (read, merge, write). */
export async function mergeIndex(
  s3: S3Client,
  bucket: string,
  key: string,
  add: ScoreIndex,
  log: Logger,
): Promise<void> {
  if (Object.keys(add).length === 0) return;
  const current = await loadIndex(s3, bucket, key, log);
  await saveIndex(s3, bucket, key, { ...current, ...add }, log);
}
