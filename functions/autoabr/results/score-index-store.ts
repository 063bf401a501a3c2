/**
 * Reading and writing an output's score index (domain/score-index.ts) in the object store. The index is
 * only a cache: failing to read or write it is logged and never fails a job or a request.
 */
import type { Logger } from '../../../core/logger';
import { parseIndex, type ScoreIndex, serialiseIndex } from '../domain/score-index';
import { ObjectNotFoundError, type ObjectStore } from '../ports/object-store';

const MAX_INDEX_BYTES = 32 * 1024 * 1024;

/** The index, or {} when there is none or it cannot be read. */
export async function loadIndex(
  objects: ObjectStore,
  bucket: string,
  key: string,
  log: Logger,
): Promise<ScoreIndex> {
  try {
    return parseIndex(await objects.getText({ bucket, key }, MAX_INDEX_BYTES));
  } catch (err) {
    if (!(err instanceof ObjectNotFoundError))
      log.warn('ignoring unreadable score index', { bucket, key, err });
    return {};
  }
}

export async function saveIndex(
  objects: ObjectStore,
  bucket: string,
  key: string,
  entries: ScoreIndex,
  log: Logger,
): Promise<void> {
  try {
    await objects.putText({ bucket, key }, serialiseIndex(entries), 'application/json');
  } catch (err) {
    log.warn('could not save the score index', { bucket, key, err });
  }
}

/** Adds entries to the stored index (read, merge, write). */
export async function mergeIndex(
  objects: ObjectStore,
  bucket: string,
  key: string,
  add: ScoreIndex,
  log: Logger,
): Promise<void> {
  if (Object.keys(add).length === 0) return;
  const current = await loadIndex(objects, bucket, key, log);
  await saveIndex(objects, bucket, key, { ...current, ...add }, log);
}
