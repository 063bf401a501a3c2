/**
 * The console as a newcomer uses it: `npm start`'s whole system, the console in headless Chromium
 * (Playwright), no curl. Get a trial token, create a Loop channel through the form (and see the API's
 * own validation message first, the field marked), watch it play for 10 s without a stall, see its
 * timeline, delete it; the AutoABR page renders and says so of a job that never existed; the API
 * reference renders; a pasted bad token is refused in words, not an endless "Loading"; one nav link is
 * current at a time. A screenshot of each page goes to
 * test-output/console/. No console errors anywhere. Runs where /usr/bin/chromium exists.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { chromiumAvailable, openChromium } from '../support/browser';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';

const SHOTS = join(import.meta.dirname, '../../test-output/console');
// Short: console-player.int.test.ts plays 30 s and checks every stat against hls.js.
const WATCH_SECONDS = 10;

let system: RunningSystem;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!chromiumAvailable()) return;
  mkdirSync(SHOTS, { recursive: true });
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0, console: 0 },
    env: { LOG_LEVEL: 'silent' },
  });
  browser = await openChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (err) => consoleErrors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('dialog', (dialog) => void dialog.accept());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

it.skipIf(!chromiumAvailable())(
  'a newcomer gets a token, creates a Loop channel, watches it, sees its timeline and deletes it; a bad token is refused in words',
  async () => {
    await page.goto(system.urls.console!);
    await page.getByLabel('Company').fill('Acme');
    await page.getByLabel('Email').fill('console@acme.test');
    await shot('1-token');
    await page.getByRole('button', { name: 'Get a trial token' }).click();
    await page.getByRole('heading', { name: 'Channels' }).waitFor();

    // The API's own validation message, shown on the form.
    await page.getByLabel('Name').fill('Not A Name');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('name: must be 1-63 lowercase');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    // The browser logs that refused request itself: the one console error this test causes on purpose.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 400 .*\/channel\)$/)]);
    consoleErrors.length = 0;

    await page.getByLabel('Name').fill('console-news');
    await page.getByRole('button', { name: 'Create channel' }).click();
    const link = page.getByRole('link', { name: 'console-news' });
    await link.waitFor();
    await shot('2-channels');

    // The engine takes a moment to pick a new channel up: open its page once it plays, as a viewer would.
    await waitOnAir(`${system.urls.engine}/channels/console-news/master.m3u8`, 30_000);
    await link.click();
    await page.getByRole('heading', { name: 'console-news' }).waitFor();
    const video = page.locator('video');
    const currentTime = () => video.evaluate((v: { currentTime: number }) => v.currentTime);
    await waitFor(currentTime, (t) => t > 1, { timeoutMs: 60_000, what: 'playback to start' });
    // Stalls as the media element reports them ('waiting' after playback started).
    await video.evaluate(
      (v: { addEventListener(type: string, f: () => void): void; dataset: Record<string, string> }) => {
        v.dataset.stalls = '0';
        v.addEventListener('waiting', () => {
          v.dataset.stalls = String(Number(v.dataset.stalls) + 1);
        });
      },
    );
    const start = await currentTime();
    const samples: number[] = [start];
    const wallStart = Date.now();
    while (Date.now() - wallStart < WATCH_SECONDS * 1000) {
      await page.waitForTimeout(1000); // sampling the player once a second, not waiting for an outcome
      samples.push(await currentTime());
    }
    const played = samples.at(-1)! - start;
    console.info(`console player: ${played.toFixed(1)} s played in ${WATCH_SECONDS} s of wall clock`);
    // Advancing throughout: every 5 samples later the video is further on.
    const seen = `positions, one a second: ${samples.map((t) => t.toFixed(2)).join(' ')}`;
    for (let i = 5; i < samples.length; i += 5) expect(samples[i]!, seen).toBeGreaterThan(samples[i - 5]!);
    expect(await video.getAttribute('data-stalls')).toBe('0');
    expect(await page.locator('[data-stat="stalls"]').textContent()).toBe('0');
    expect(await page.locator('[data-stat="bitrate"]').textContent()).toMatch(/kbit\/s/);

    await page.locator('ol.timeline li[data-role="now"]').waitFor({ timeout: 60_000 });
    await shot('3-channel');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('3-channel-phone');
    await page.setViewportSize({ width: 1100, height: 900 });

    await page.getByRole('link', { name: '← All channels' }).click();
    await page.getByRole('button', { name: 'Delete console-news' }).click();
    await page.getByText('No channels yet').waitFor();

    await page.getByRole('link', { name: 'AutoABR' }).click();
    await page.getByRole('heading', { name: 'Submit a VMAF job' }).waitFor();
    await page.getByText('No job is queued or running.').waitFor();
    await page.getByLabel('Results of job (name)').fill('never-was');
    await page.getByRole('button', { name: 'Show results' }).click();
    await page.getByText('No job named “never-was” was found.').waitFor();
    expect(await page.locator('nav [aria-current="page"]').allTextContents()).toEqual(['AutoABR']);
    await shot('4-autoabr');

    await page.getByRole('link', { name: 'API reference' }).click();
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    await shot('5-api-reference');
    expect(consoleErrors).toEqual([]);

    // A pasted token the API refuses: said in words, with the way out, and only the Token link current.
    await page.goto(`${system.urls.console!}#/token`);
    await page.getByLabel('Token (x-jwt)').fill('not-a-token');
    await page.getByRole('button', { name: 'Use this token' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('Your token was refused (401');
    expect(await page.getByText('Loading…').count()).toBe(0);
    expect(await page.locator('nav [aria-current="page"]').allTextContents()).toEqual(['Channels']);
    await shot('6-refused-token');
    // The browser logs the refused request itself.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 401 .*\/channel\)$/)]);
  },
  240_000,
);
