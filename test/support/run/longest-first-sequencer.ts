/**
 * The order files start in: the suites that play or wait in real time for minutes first, so no worker is
 * left with one at the end while the others sit idle (the longest-first rule for a pool of workers).
 * Vitest orders by the durations it cached on an earlier run, and by file size on a clean clone, where a
 * 65-line suite that plays through a two-minute outage would start last. These are the files the slowest-
 * files report (slowest-files-reporter.ts) names, longest first; every other file keeps vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONG_RUNNING: readonly string[] = [
  // Longest first, by their seconds in a full run (the slowest-files report, 2026-11-27). Their tables
  // are in the run's DynamoDB Local but for the DynamoDB store-loss suite's (it kills its own).
  'test/engine-media/real-content.int.test.ts',
  'test/e2e/live-sources.int.test.ts',
  'test/reliability/engine-store-loss-dynamodb.int.test.ts',
  'test/e2e/schedule-media.int.test.ts',
  'test/e2e/live-mixing.int.test.ts',
  'test/reliability/engine-store-loss-redis.int.test.ts',
  'test/e2e/schedule-ad-breaks.int.test.ts',
  'test/e2e/console-schedule.int.test.ts',
  'test/cdk/deployment-doors.int.test.ts',
  'test/e2e/console-asrun.int.test.ts',
  'test/engine-ha/failover-dynamodb.int.test.ts',
  'test/engine-ha/failover-redis.int.test.ts',
  'test/cdk/console.int.test.ts',
  'test/cdk/stack.int.test.ts',
  'test/e2e/live-renditions.int.test.ts',
  'test/e2e/console-player.int.test.ts',
  'test/e2e/browser-playback.int.test.ts',
  'test/engine-media/latency.int.test.ts',
  'test/asrun/asrun-playback.int.test.ts',
  'test/e2e/slate-seam.int.test.ts',
  'test/autoabr/e2e.int.test.ts',
  'test/reliability/store-outage.int.test.ts',
  'test/reliability/autoabr-store-outage.int.test.ts',
  'test/autoabr/results-s3.int.test.ts',
  'test/e2e/engine-ha.int.test.ts',
  'test/e2e/channel-playback.int.test.ts',
  'test/e2e/interstitial-playback.int.test.ts',
  'test/engine-host/polling-cost.int.test.ts',
];

/** Files in `order` first, in its order; the rest after, in the order given (a stable sort). */
export function longestFirst<T>(
  files: readonly T[],
  name: (file: T) => string,
  order: readonly string[],
): T[] {
  const rank = (file: T) => {
    const at = order.indexOf(name(file));
    return at === -1 ? order.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return longestFirst(await super.sort(files), (f) => relative(root, f.moduleId), LONG_RUNNING);
  }
}
