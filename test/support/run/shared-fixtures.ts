/**
 * Makes the media fixtures (test/support/fixtures.ts) before any integration file starts (vitest
 * globalSetup, vitest.config.ts). Left to the first file that needs them, they were made while the run's
 * first files imported and computed: 48 s on a clean clone (9 s on a quiet machine), with the first
 * real-time suites holding their slots while they waited. Files still call `ensureFixtures()`, which
 * then only reads the stamps.
 */
import { ensureFixtures } from '../fixtures';

export default async function setup(): Promise<void> {
  await ensureFixtures();
}
