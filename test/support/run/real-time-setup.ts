/**
 * Runs before every test file (vitest.config.ts `setupFiles`): a real-time suite (real-time-suites.ts)
 * waits for one of the run's real-time slots (half of one, when it is light) before its own hooks start
 * its system. The wait is kept in the file's meta, so the slowest-files report counts only the file's
 * own time.
 */
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { realTimeSlotCount, takeSlot } from './real-time-slots';
import { halfSlotsOf, isRealTimeSuite } from './real-time-suites';
import { runFolder } from './run-folder';

declare module 'vitest' {
  interface TaskMeta {
    /** How long a real-time suite waited for its slot. */
    slotWaitMs?: number;
  }
}

/** A real-time suite's longest wait for a slot: a hang elsewhere, not a queue, once it is past. */
const SLOT_TIMEOUT_MS = 30 * 60_000;

const file = relative(process.cwd(), expect.getState().testPath ?? '');
// `ps` (or top) during a run says which file each worker, and each Chromium or ffmpeg under it, serves.
process.title = `vitest ${file}`;
const folder = runFolder();

if (isRealTimeSuite(file) && folder) {
  let release: (() => void) | undefined;
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook uses from this pattern
  beforeAll(async ({}, suite) => {
    const waitFrom = Date.now();
    // A slot is two slot files, so a light suite can hold half of one (real-time-suites.ts).
    release = await takeSlot({
      folder,
      count: 2 * realTimeSlotCount(),
      take: halfSlotsOf(file),
      timeoutMs: SLOT_TIMEOUT_MS,
    });
    suite.meta.slotWaitMs = Date.now() - waitFrom;
  }, SLOT_TIMEOUT_MS + 10_000); // past the wait's own deadline, so its message is the one reported
  afterAll(() => release?.());
}
