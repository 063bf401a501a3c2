/**
 * One Chromium for the whole integration run (vitest globalSetup, vitest.config.ts), as a Playwright
 * browser server: launching Chromium costs about 4 s of CPU (measured: 4.2 CPU-s for a 2 s play, 7 for
 * a 30 s one), and a run plays in a browser dozens of times (a full run's Chromium: 369 CPU-s with a
 * launch each, 271 so). If it dies, each later play launches a Chromium of its own, saying so. Each
 * play or console session connects and opens a context of its own (no cookies, storage or cache
 * shared), and closing it closes only that (test/support/browser.ts, `openChromium`;
 * shared-browser-setup.ts hands it the endpoint). Absent where there is no Chromium: those suites skip.
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable } from '../browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (a Playwright server endpoint); absent when the run started none. */
    chromiumEndpoint?: string;
  }
}

/** globalSetup: starts the run's Chromium and hands its endpoint to every test file. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!chromiumAvailable()) return undefined;
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
