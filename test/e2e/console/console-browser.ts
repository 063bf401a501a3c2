/**
 * A Chromium page on the console, signed in with a token, as the console journeys open it: the page's
 * console errors and uncaught exceptions collected (each test says which it expects), and screenshots
 * saved under test-output/<name>/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { openChromium } from '../../support/browser';

export interface ConsoleError {
  text: string;
  /** The script or request that logged it ('' for an uncaught exception). */
  url: string;
}

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** Saves a full-page screenshot as test-output/<name>/<shotName>.png. */
  shot(shotName: string): Promise<Buffer>;
}

export interface ConsoleBrowserOptions {
  /** The folder under test-output/ for this suite's screenshots. */
  name: string;
  /** Stored as the console's token before any page script runs. */
  token: string;
  /** Scripts added before every page load (recorders of what the page's player does). */
  initScripts?: string[];
  page?: BrowserContextOptions;
  /** Where the page's console errors and uncaught exceptions are pushed. */
  errors: ConsoleError[];
}

export async function openConsoleBrowser(options: ConsoleBrowserOptions): Promise<ConsoleBrowser> {
  const shots = join(import.meta.dirname, '../../../test-output', options.name);
  mkdirSync(shots, { recursive: true });
  const browser = await openChromium();
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, ...options.page });
  await page.addInitScript({
    content: `localStorage.setItem('onair.token', ${JSON.stringify(options.token)});`,
  });
  for (const content of options.initScripts ?? []) await page.addInitScript({ content });
  page.on('pageerror', (err) => options.errors.push({ text: `page error: ${err.message}`, url: '' }));
  page.on('console', (msg) => {
    if (msg.type() === 'error') options.errors.push({ text: msg.text(), url: msg.location().url });
  });
  return {
    browser,
    page,
    shot: (shotName) => page.screenshot({ path: join(shots, `${shotName}.png`), fullPage: true }),
  };
}
