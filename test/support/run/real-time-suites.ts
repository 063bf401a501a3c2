/**
 * The suites that play or wait on the wall clock and assert on what they saw in time: hls.js in
 * Chromium, ffmpeg playing or sending live, an outage and its recovery. A loaded machine makes them fail
 * (a late switch, a stall), where it only makes the others slower. So they run at most a few at once
 * (real-time-slots.ts, real-time-setup.ts).
 *
 * Longest first, by their seconds in a full run (the slowest-files report, 2026-11-27 19:03 UTC).
 */
export const REAL_TIME_SUITES: readonly string[] = [
  'test/engine-media/real-content.int.test.ts',
  'test/reliability/engine-store-loss-dynamodb.int.test.ts',
  'test/e2e/schedule-media.int.test.ts',
  'test/e2e/live-mixing.int.test.ts',
  'test/reliability/engine-store-loss-redis.int.test.ts',
  'test/e2e/console-schedule.int.test.ts',
  'test/e2e/schedule-ad-breaks.int.test.ts',
  'test/e2e/live-sources.int.test.ts',
  'test/e2e/console-asrun.int.test.ts',
  'test/e2e/console-player.int.test.ts',
  // 50 s alone, 56-134 s in full runs. Placed after schedule-ad-breaks it overlapped the heaviest
  // players, and two clean-clone runs in a row each failed one of them (live-sources' start,
  // schedule-ad-breaks' as-run); here its run passed (CI50, 2026-11-29).
  'test/e2e/console/subtitles.int.test.ts',
  'test/engine-ha/failover-redis.int.test.ts',
  'test/engine-ha/failover-dynamodb.int.test.ts',
  'test/e2e/live-renditions.int.test.ts',
  'test/e2e/browser-playback.int.test.ts',
  'test/asrun/asrun-playback.int.test.ts',
  'test/engine-media/latency.int.test.ts',
  'test/e2e/slate-seam.int.test.ts',
  'test/e2e/console.int.test.ts',
  'test/e2e/engine-ha.int.test.ts',
  'test/e2e/channel-playback.int.test.ts',
  'test/e2e/interstitial-playback.int.test.ts',
  'test/engine-host/polling-cost.int.test.ts',
  'test/timeshift/catch-up-playback.int.test.ts',
  'test/reliability/autoabr-store-outage.int.test.ts',
  'test/reliability/store-outage.int.test.ts',
  'test/timeshift/start-over-playback.int.test.ts',
  'test/engine/real-media.int.test.ts',
  'test/support-selftest/hls-client.int.test.ts',
  // Two seconds of pages opened in the run's Chromium, beside the players there.
  'test/support-selftest/shared-browser.int.test.ts',
];

/**
 * The files that compute for a minute or more (a synthesized stack, VMAF jobs, image runs): they start
 * first among the rest, so none is left alone at the end. Longest first, as above.
 */
export const LONG_COMPUTING_SUITES: readonly string[] = [
  'test/autoabr/e2e.int.test.ts',
  'test/cdk/deployment-doors.int.test.ts',
  'test/cdk/stack.int.test.ts',
  'test/cdk/console.int.test.ts',
  'test/images/images.int.test.ts',
  'test/local/ownership.int.test.ts',
];

export const isRealTimeSuite = (file: string): boolean => REAL_TIME_SUITES.includes(file);

/**
 * The real-time suites that keep a fifth of a core busy or less, alone on the machine: CPU seconds over
 * wall-clock seconds (`/usr/bin/time npx vitest run <file>`, less the 8.6 s of CPU a run of a 2 s suite
 * costs: DynamoDB Local and Chromium starting), 2026-11-29. Each holds half a slot: two of them load the
 * machine about as one of the others does (0.21–0.46 of a core: live-mixing 0.46, live-sources 0.39,
 * live-renditions 0.31, console-schedule 0.28, console-asrun 0.26, HA failover on DynamoDB 0.26, the
 * console's subtitles 0.21). A suite not measured holds a whole slot.
 */
export const LIGHT_REAL_TIME_SUITES: readonly string[] = [
  'test/engine-media/real-content.int.test.ts', // 0.15 of a core
  'test/reliability/engine-store-loss-dynamodb.int.test.ts', // 0.16
  'test/e2e/schedule-media.int.test.ts', // 0.19
  'test/reliability/engine-store-loss-redis.int.test.ts', // 0.12
  'test/e2e/schedule-ad-breaks.int.test.ts', // 0.17
  'test/e2e/console-player.int.test.ts', // 0.15
  'test/engine-ha/failover-redis.int.test.ts', // 0.16
  'test/engine-media/latency.int.test.ts', // 0.14
];

/** How many half slots a file holds: 1 when it is a light real-time suite, 2 another one, 0 any other file. */
export const halfSlotsOf = (file: string): 0 | 1 | 2 =>
  !isRealTimeSuite(file) ? 0 : LIGHT_REAL_TIME_SUITES.includes(file) ? 1 : 2;
