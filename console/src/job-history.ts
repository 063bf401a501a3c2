/**
 * The AutoABR jobs this browser submitted or saw running, newest first, kept in localStorage: the API
 * lists only active jobs (GET /autoabr), so a finished job would otherwise vanish from the page. Each
 * one's status is read from GET /autoabr/{id}.
 */
export interface KnownJob {
  id: string;
  name: string;
  createdAt: number;
}

const KEY = 'onair.autoabr.jobs';
const KEPT = 20;

export function readJobs(): KnownJob[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? (list as KnownJob[]).filter((j) => typeof j?.id === 'string') : [];
  } catch {
    return [];
  }
}

/** Adds jobs not known yet; returns the list as stored. */
export function rememberJobs(jobs: readonly KnownJob[]): KnownJob[] {
  const known = readJobs();
  const ids = new Set(known.map((j) => j.id));
  const merged = [...known, ...jobs.filter((j) => !ids.has(j.id))]
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, KEPT);
  localStorage.setItem(KEY, JSON.stringify(merged));
  return merged;
}

export const isFinal = (phase: string): boolean => phase === 'SUCCEEDED' || phase === 'FAILED';
