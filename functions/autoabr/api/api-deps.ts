/** What the API's handlers work with: built once per API instance by its entry point. */
import type { Logger } from '../../../core/logger';
import type { JobQueue } from '../ports/job-queue';
import type { JobStore } from '../ports/job-store';
import type { ObjectStore } from '../ports/object-store';
import type { ScoreCache } from '../results/score-cache';
import type { AuthenticateCaller } from './auth';
import type { SettingsCache } from './settings-cache';

export interface ApiDeps {
  /** Who the request acts for (api/auth.ts): a tenant, or undefined when auth is off. */
  authenticate: AuthenticateCaller;
  jobs: JobStore;
  queue: JobQueue;
  objects: ObjectStore;
  settings: SettingsCache;
  scores: ScoreCache;
  config: {
    /** Attempts each new job gets. */
    maxAttempts: number;
    /** Result files fetched at once when compiling. */
    resultConcurrency: number;
  };
  /** The service bucket: default result bucket, and where the default pipeline writes. */
  bucket: string;
  now(): number;
  newId(): string;
  log: Logger;
}
