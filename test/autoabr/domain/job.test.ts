import { describe, expect, it } from 'vitest';
import { retryDelaySeconds, staleJobs } from '../../../functions/autoabr/domain/attempt-policy';
import { type JobItem, newJob, workerInfo } from '../../../functions/autoabr/domain/job';
import { DEFAULT_ENCODING_SETTINGS, DEFAULT_PIPELINE } from '../../../functions/autoabr/domain/settings';

const job = (over: Partial<JobItem> = {}): JobItem => ({
  ...newJob({
    id: 'j1',
    spec: {
      name: 'clip',
      reference: 's3://b/r.mp4',
      models: ['HD', 'UHD'],
      bitrates: [1, 2, 3],
      resolutions: [
        { width: 2, height: 2 },
        { width: 4, height: 4 },
      ],
    },
    encoding: DEFAULT_ENCODING_SETTINGS,
    pipeline: { ...DEFAULT_PIPELINE, resultBucket: 'b' },
    maxAttempts: 3,
    now: 1000,
  }),
  ...over,
});

describe('jobs and worker info', () => {
  it('starts ACTIVE and QUEUED with a file per model and rung to do', () => {
    const j = job();
    expect([j.status, j.phase, j.attempts]).toEqual(['ACTIVE', 'QUEUED', 0]);
    expect(j.progress).toEqual({ done: 0, total: 12 });
  });

  it('has run for 0 ms while queued', () => {
    expect(workerInfo(job(), 50_000).runningTimeMs).toBe(0);
  });

  it('counts running time from the start of the attempt until now', () => {
    const info = workerInfo(
      job({ phase: 'RUNNING', startedAt: 2000, progress: { done: 3, total: 12 } }),
      9500,
    );
    expect(info.runningTimeMs).toBe(7500);
    expect(info.progress).toEqual({ done: 3, total: 12, percent: 25 });
  });

  it('stops the clock when the job finished', () => {
    const info = workerInfo(
      job({ status: 'INACTIVE', phase: 'SUCCEEDED', startedAt: 2000, finishedAt: 4000 }),
      99_000,
    );
    expect(info.runningTimeMs).toBe(2000);
  });

  it('points at the results of its output', () => {
    expect(workerInfo(job(), 0).result).toBe('/autoabr/result/clip/');
  });
});

describe('attempts', () => {
  it('finds RUNNING jobs whose heartbeat is older than the timeout, and only those', () => {
    const jobs = [
      job({ id: 'fresh', phase: 'RUNNING', heartbeatAt: 9000 }),
      job({ id: 'stale', phase: 'RUNNING', heartbeatAt: 1000 }),
      job({ id: 'queued', phase: 'QUEUED' }),
    ];
    expect(staleJobs(jobs, 10_000, 5000).map((j) => j.id)).toEqual(['stale']);
  });

  it('waits longer before each retry, up to a minute', () => {
    expect([1, 2, 3, 10].map(retryDelaySeconds)).toEqual([5, 10, 20, 60]);
  });
});
