/**
 * Running a schedule channel from the console (issue 23), as an operator would in headless Chromium
 * on the whole local system: on the channel's page a VOD entry with an unreadable URL is refused with
 * the API's reason and its field marked; a VOD entry added for later is moved to a moment from now and
 * a spare one deleted; a LIVE entry from a real ffmpeg live source is added after the VOD; the player
 * then shows each one as "now" on the timeline while its fragments (the VOD's, then the live
 * source's) load. Screenshots go to test-output/console-schedule/ (gitignored). No console errors but
 * the refused request the test makes on purpose and the engine's answers while it picks the channel up.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { chromiumAvailable } from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { type LiveSource, startLiveSource } from '../support/live-source';
import { awaitAll } from '../support/promises/await-all';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { type ConsoleBrowser, type ConsoleError, openConsoleBrowser } from './console/console-browser';

const CHANNEL = 'studio';

let system: RunningSystem;
let origin: StaticServer;
let live: LiveSource;
let fixtures: FixturePaths;
let browser: Browser;
let page: Page;
let shot: ConsoleBrowser['shot'];
const consoleErrors: ConsoleError[] = [];

const noChromium = !chromiumAvailable();

/** Fragment URLs the player loaded, recorded through the console's hls.js hook. */
const FRAG_RECORDER = `
window.__frags = [];
window.onairHlsCreated = (hls) => hls.on('hlsFragLoaded', (_e, { frag }) => window.__frags.push(frag.url));
`;

beforeAll(async () => {
  if (noChromium) return;
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  // The source's first segments take seconds of real time: it starts while the system does.
  await awaitAll([
    startLiveSource().then((source) => {
      live = source;
    }),
    startSystem({
      sharedDynamoDb: sharedDynamoDb(),
      ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0, console: 0 },
      services: ['channel', 'schedule', 'engine', 'console'],
      env: { LOG_LEVEL: 'silent', ENGINE_CHANNEL_REFRESH_MS: '500' },
    }).then((started) => {
      system = started;
    }),
  ]);
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Studio', email: 'operator@studio.test' }),
  });
  const token = ((await res.json()) as { token: string }).token;
  const made = await fetch(`${system.urls.schedule}/channels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // 2 s segments, as the fixtures and the live source have: the page's player plays three target
    // durations behind the live edge, so what airs reaches it in seconds, not half a minute.
    body: JSON.stringify({ id: CHANNEL, title: 'Studio', targetDuration: 2 }),
  });
  expect(made.status).toBe(201);
  ({ browser, page, shot } = await openConsoleBrowser({
    name: 'console-schedule',
    token,
    initScripts: [FRAG_RECORDER],
    // UTC in the page, so the times typed into its datetime-local fields are the instants meant here.
    page: { timezoneId: 'UTC' },
    errors: consoleErrors,
  }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await live?.close();
  await origin?.close();
});

/** A datetime-local value in UTC, to the second. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);

interface Entry {
  id: string;
  title: string;
  type: string;
  start_time: number;
  end_time: number;
}
async function entries(): Promise<Entry[]> {
  const now = Date.now();
  const q = new URLSearchParams({
    start: new Date(now - 3_600_000).toISOString(),
    end: new Date(now + 86_400_000).toISOString(),
  });
  const res = await fetch(`${system.urls.schedule}/channels/${CHANNEL}/schedule?${q}`);
  return (await res.json()) as Entry[];
}
const entryNamed = async (title: string) => (await entries()).find((e) => e.title === title);

async function addEntry(e: {
  title: string;
  type: 'VOD' | 'LIVE';
  url: string;
  start: number;
  end?: number;
}) {
  await page.locator('#entry-title').fill(e.title);
  await page.locator('#entry-type').selectOption(e.type);
  await page.locator('#entry-url').fill(e.url);
  await page.locator('#entry-start').fill(local(e.start));
  await page.locator('#entry-end').fill(e.end === undefined ? '' : local(e.end));
  await page.getByRole('button', { name: 'Add to the schedule' }).click();
}

const nowShown = () =>
  page
    .locator('ol.timeline li[data-role="now"]')
    .textContent({ timeout: 1000 })
    .catch(() => '');
const frags = () => page.evaluate('window.__frags') as Promise<string[]>;

/** Waits until the timeline's "now" (the frame on screen) is `title` and a fragment matching `url` loaded. */
async function untilAiring(title: string, fragment: (url: string) => boolean, timeoutMs: number) {
  try {
    await waitFor(
      async () => ({ now: await nowShown(), loaded: (await frags()).some(fragment) }),
      (s) => (s.now ?? '').includes(title) && s.loaded,
      { timeoutMs, what: `${title} on air in the player`, intervalMs: 500 },
    );
  } catch (err) {
    await shot(`failed-${title}`);
    throw new Error(
      `${String(err)}\npage:\n${await page.locator('main').textContent()}\nfrags: ${(await frags()).slice(-5).join(' ')}`,
    );
  }
}

describe.skipIf(noChromium)("scheduling from a schedule channel's page", () => {
  it('adds, moves and deletes entries from the timeline, and each one airs', async () => {
    const vodUrl = `${origin.url}/${fixtures.vodA.path}`;
    await page.goto(`${system.urls.console}#/channel/s/${CHANNEL}`);
    await page.locator('#add-entry-title').waitFor();

    // A VOD whose URL answers 404 is refused: the page shows the API's own reason, the field marked.
    const broken = {
      title: 'Broken',
      type: 'VOD' as const,
      url: `${origin.url}/missing/master.m3u8`,
      start: Date.now() + 60_000,
    };
    await addEntry(broken);
    const refusal = await fetch(`${system.urls.schedule}/channels/${CHANNEL}/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...broken, start: new Date(broken.start).toISOString() }),
    });
    expect(refusal.status).toBe(400);
    const reason = (await refusal.json()) as { message: string; field: string };
    expect(reason.field).toBe('url');
    await expect
      .poll(() => page.locator('#entry-error').textContent(), { timeout: 15_000 })
      .toBe(reason.message);
    expect(await page.locator('#entry-url').getAttribute('aria-invalid')).toBe('true');
    await shot('1-refused-url');

    // Added for later, then moved to a moment from now: one entry, at the new time.
    await addEntry({ title: 'Morning film', type: 'VOD', url: vodUrl, start: Date.now() + 3_600_000 });
    const later = await waitFor(
      () => entryNamed('Morning film'),
      (e) => e !== undefined,
      { timeoutMs: 10_000, what: 'the VOD entry' },
    );
    const row = page.locator(`tr[data-title="Morning film"]`);
    await row.waitFor();
    // Inside what the engine has already planned (it plans tens of seconds past its lead at a time,
    // wake.ts PLAN_BATCH_MS): its slate runs past the entry's start, and it cuts the entry in when it
    // sees the move (docs/schedule-api.md).
    const vodStart = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
    await row.locator('input[type="datetime-local"]').fill(local(vodStart));
    await row.getByRole('button', { name: 'Move' }).click();
    const moved = await waitFor(
      async () => (await entries()).filter((e) => e.title === 'Morning film'),
      (list) => list.length === 1 && list[0]!.start_time === vodStart,
      { timeoutMs: 10_000, what: 'the VOD moved' },
    );
    expect(moved[0]!.id).not.toBe(later!.id);
    expect(moved[0]!.end_time - moved[0]!.start_time).toBe(later!.end_time - later!.start_time);

    // A spare entry, deleted from its row.
    await addEntry({ title: 'Spare', type: 'VOD', url: vodUrl, start: Date.now() + 7_200_000 });
    await page.locator('tr[data-title="Spare"]').getByRole('button', { name: 'Delete' }).click();
    await page.locator('tr[data-title="Spare"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await entryNamed('Spare')).toBeUndefined();

    // LIVE from a real ffmpeg source, a few seconds after the VOD ends.
    const liveStart = moved[0]!.end_time + 4_000;
    await addEntry({
      title: 'Studio live',
      type: 'LIVE',
      url: live.url,
      start: liveStart,
      end: liveStart + 40_000,
    });
    await page.locator('tr[data-title="Studio live"]').waitFor({ timeout: 10_000 });
    await shot('2-scheduled');

    const vodFolder = fixtures.vodA.path.replace('master.m3u8', '');
    await untilAiring('Morning film', (u) => u.includes(vodFolder), 90_000);
    await shot('3-vod-on-air');
    await untilAiring('Studio live', (u) => u.startsWith(live.url.replace('master.m3u8', '')), 120_000);
    expect(await page.locator('ol.timeline li[data-role="now"] .badge.live').count()).toBe(1);
    await shot('4-live-on-air');

    const unexpected = consoleErrors.filter(
      (e) =>
        // the refused POST of the 404 URL, made on purpose
        !(/status of 400/.test(e.text) && e.url.endsWith(`/channels/${CHANNEL}/schedule`)) &&
        // the engine's answers while it picks the channel up
        !(/status of (404|503)/.test(e.text) && e.url.includes(`~${CHANNEL}/`)),
    );
    expect(unexpected).toEqual([]);
  }, 300_000);
});
