/**
 * Runs before every test file (vitest.config.ts `setupFiles`): the file's browsers open in the run's
 * Chromium (shared-browser.ts) when the run started one, and are launched one each otherwise.
 */
import { useSharedChromium } from '../browser';
import { sharedChromiumEndpoint } from './shared-browser';

useSharedChromium(sharedChromiumEndpoint());
