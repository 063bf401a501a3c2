/**
 * Makes the media fixtures (test/support/fixtures.ts) before any integration file starts (vitest
 * globalSetup, vitest.config.ts). Left to the first file that needs them, they were made while the run's
 * first files imported and computed: 48 s on a clean clone (9 s on a quiet machine), with the first
 * real-time suites holding their slots while they waited. Files still call `ensureFixtures()`, which
 * then only reads the stamps.
 */
import { logger } from '../../../core/logger';
import { ensureFixtures } from '../fixtures';

/** Never fails the run: without ffmpeg, the files that need fixtures fail and say why; the rest run. */
export default async function setup(): Promise<void> {
  try {
    await ensureFixtures();
  } catch (err) {
    logger.warn('media fixtures not made before the run', { err });
  }
}
