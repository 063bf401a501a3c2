/**
 * Runs before every test file (vitest.config.ts `setupFiles`): the file's browsers open in the run's
 * Chromium (shared-browser.ts) when the run started one, through `CHROMIUM_ENDPOINT`, which
 * test/support/browser.ts reads; else each is launched. Imports nothing heavy: it runs for every file.
 */
import { inject } from 'vitest';

const endpoint = inject('chromiumEndpoint');
if (endpoint) process.env.CHROMIUM_ENDPOINT = endpoint;
