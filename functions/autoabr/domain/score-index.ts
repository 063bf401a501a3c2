/**
 * A per-output index of known scores, `<prefix>/<output>/.scores.json`: relative key -> { etag, score }.
 * Compiling 1,000 results means 1,000 GETs otherwise (about a millisecond of SDK work each, plus the
 * round trip). The index is only a cache: a listing is always taken, and an entry counts only while
 * its ETag matches the listed object, so a rewritten or new file is always downloaded. The worker
 * writes entries for the files it uploads; the API adds the ones it had to download. Concurrent
 * writers can drop each other's entries, which only costs a download later.
 */
import { outputPrefix } from './result-keys';

export interface IndexEntry {
  etag: string;
  score: number;
}

export type ScoreIndex = Record<string, IndexEntry>;

export const INDEX_NAME = '.scores.json';
export const indexKey = (prefix: string, output: string): string =>
  `${outputPrefix(prefix, output)}${INDEX_NAME}`;

/** The index's entries; entries of the wrong shape are left out. Throws on text that is not JSON. */
export function parseIndex(text: string): ScoreIndex {
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

export const serialiseIndex = (entries: ScoreIndex): string => JSON.stringify({ version: 1, entries });
