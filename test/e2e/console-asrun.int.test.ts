/**
 * The channel page's as-run log, start-over and source change (issues 21 and 23), walked in headless
 * Chromium on the whole local system: the as-run table lists what the API says aired on a new Loop
 * channel with a preroll (and the CSV it downloads has those rows); start-over from half a minute ago plays
 * in the page's player an EVENT playlist whose first fragment aired at the moment asked, and "Back to
 * live" returns to the live playlist; a source changed from the page to a URL that answers 404 is
 * saved with the API's warning on that field, and a malformed one is refused with the field marked; a
 * schedule channel's as-run table lists what the schedule API says it aired; the create form makes a
 * channel with an interstitial preroll and shows the warning for its 404 source.
 * The channel airs for about 45 s before the browser opens, so the browser's own time stays short
 * (printed). Screenshots go to test-output/console-asrun/ (gitignored).
 */
import { text } from 'node:stream/consumers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { chromiumAvailable } from '../support/browser';
import {
  channelUser,
  type FixtureSystem,
  loopWithPreroll,
  startFixtureSystem,
} from '../support/fixture-system';
import { waitOnAir } from '../support/on-air';
import { type ConsoleBrowser, type ConsoleError, openConsoleBrowser } from './console/console-browser';

const CHANNEL = 'asrun-news';
/** A schedule channel with one VOD entry: its as-run log is read from the schedule API. */
const STUDIO = 'asrun-studio';
/** Start-over asks for half a minute ago (the field takes fractions): the channel must have aired since before then. */
const START_OVER_MINUTES = 0.5;
const AIRED_BEFORE_BROWSER_MS = START_OVER_MINUTES * 60_000 + 15_000;
/**
 * A fragment holds the asked moment: its PDT is at most one segment before it, 2 s or, for a TS item's
 * first segment, 2 s and the audio's lead the engine lists with it (21 ms here, at most 100 ms:
 * docs/media.md, "Seams").
 */
const SEGMENT_MS = 2_100;

/** Each hls.js the page makes, with the PDT of the first main fragment it loaded. */
const HLS_SCRIPT = `
window.onairHlsCreated = (hls) => {
  window.__hls = hls;
  hls.__firstPdt = null;
  hls.on('hlsFragLoaded', (_e, { frag }) => {
    if (frag.type === 'main' && hls.__firstPdt === null) hls.__firstPdt = frag.programDateTime;
  });
};`;

interface Entry {
  startMs: number;
  endMs: number;
  kind: string;
  id: string;
  title: string;
}

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;
let browser: Browser;
let page: Page;
let shot: ConsoleBrowser['shot'];
let token: string;
let channelId: string;
let browserOpenedAt = 0;
const consoleErrors: ConsoleError[] = [];

const noChromium = !chromiumAvailable();

const api = (
  path: string,
  init: { method?: string; body?: unknown } = {},
  base = onair.system.urls.channel,
) =>
  fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', 'x-jwt': `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** The as-run log of the last two hours, as the channel API (or the schedule API) answers it. */
async function asRun(schedule = false): Promise<Entry[]> {
  const q = new URLSearchParams({ start: new Date(Date.now() - 7_200_000).toISOString(), limit: '1000' });
  const res = schedule
    ? await api(`/channels/${STUDIO}/asrun?${q}`, {}, onair.system.urls.schedule)
    : await api(`/channel/${encodeURIComponent(channelId)}/asrun?${q}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Entry[];
}

beforeAll(async () => {
  if (noChromium) return;
  onair = await startFixtureSystem(['channel', 'schedule', 'engine', 'console']);
  const user = await channelUser(onair.system, 'asrun@archivists.test', 'Archivists');
  token = user.token;
  const channel = await user.createChannel(loopWithPreroll(onair, CHANNEL));
  channelId = channel.id;
  await makeStudio();
  await waitOnAir(channel.playback, 60_000);
  const onAirAt = Date.now();
  // vod-a is 20 s and the preroll 6 s: by now a few of each have aired, and the studio's entry.
  await waitFor(
    async () => ({ news: await asRun(), studio: await asRun(true) }),
    ({ news, studio }) =>
      news.length >= 3 &&
      studio.some((e) => e.title === 'Studio VOD') &&
      Date.now() - onAirAt >= AIRED_BEFORE_BROWSER_MS,
    { timeoutMs: 180_000, intervalMs: 1000, what: 'the channels to air a few items for 45 s' },
  );
  browserOpenedAt = Date.now();
  ({ browser, page, shot } = await openConsoleBrowser({
    name: 'console-asrun',
    token,
    initScripts: [HLS_SCRIPT],
    page: { acceptDownloads: true },
    errors: consoleErrors,
  }));
  await page.goto(`${onair.system.urls.console}#/channel/c/${encodeURIComponent(channelId)}`);
}, 300_000);

/** The schedule channel, with vod-a scheduled a few seconds from now (it airs its 20 s, then slate). */
async function makeStudio() {
  const made = await api(
    '/channels',
    { method: 'POST', body: { id: STUDIO, title: 'Studio' } },
    onair.system.urls.schedule,
  );
  expect(made.status).toBe(201);
  const entry = await api(
    `/channels/${STUDIO}/schedule`,
    {
      method: 'POST',
      body: {
        title: 'Studio VOD',
        type: 'VOD',
        url: `${onair.origin.url}/${onair.fixtures.vodA.path}`,
        start: new Date(Date.now() + 5_000).toISOString(),
      },
    },
    onair.system.urls.schedule,
  );
  expect(entry.status).toBe(201);
}

afterAll(async () => {
  if (browserOpenedAt) console.info(`console as-run: browser time ${Date.now() - browserOpenedAt} ms`);
  await browser?.close();
  await onair?.stop();
});

interface Row extends Entry {
  adBreak: string;
}

/** What the page's as-run table lists, row by row (scripts are strings: they run in the browser). */
const shownRows = () =>
  page.evaluate(`[...document.querySelectorAll('table[data-asrun] tbody tr')].map((tr) => ({
    startMs: Number(tr.dataset.startMs),
    endMs: Number(tr.dataset.endMs),
    id: tr.dataset.id,
    kind: tr.querySelector('[data-kind]').dataset.kind,
    title: tr.children[3].textContent,
    adBreak: tr.children[4].textContent,
  }))`) as Promise<Row[]>;

interface PlayerNow {
  url: string;
  type: string | null;
  live: boolean | null;
  firstPdt: number | null;
  playingDate: number | null;
  currentTime: number;
}

/** hls.js as the page's player has it now. */
const player = () =>
  page.evaluate(`(() => {
    const hls = window.__hls;
    const level = hls.levels[Math.max(hls.currentLevel, 0)];
    return {
      url: hls.url || '',
      type: level && level.details ? level.details.type : null,
      live: level && level.details ? level.details.live : null,
      firstPdt: hls.__firstPdt,
      playingDate: hls.playingDate ? hls.playingDate.getTime() : null,
      currentTime: document.querySelector('video').currentTime,
    };
  })()`) as Promise<PlayerNow>;

describe.skipIf(noChromium)("the console's channel page: as-run, start-over, source change", () => {
  it('lists in its as-run table what the API says aired, and downloads it as CSV', async () => {
    const aired = await asRun();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const rows = await waitFor(shownRows, (r) => r.length >= aired.length, {
      timeoutMs: 15_000,
      what: 'the as-run table to list what the API listed',
    });
    await shot('asrun-table');
    expect(
      rows
        .slice(0, aired.length)
        .map(({ startMs, endMs, id, kind, title }) => ({ startMs, endMs, id, kind, title })),
    ).toEqual(aired.map(({ startMs, endMs, id, kind, title }) => ({ startMs, endMs, id, kind, title })));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['preroll', 'vod']));
    // Every preroll shows its ad break (cue-out → cue-in, the seconds that aired).
    for (const r of rows.filter((x) => x.kind === 'preroll')) expect(r.adBreak).toMatch(/→ .+ \(\d+\.\d s\)/);
    console.info(`console as-run: ${rows.length} rows shown, ${aired.length} compared with the API`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    // Read as a stream: a browser connected to (the run's shared Chromium) keeps its downloads to itself.
    const csv = (await text(await download.createReadStream())).trim().split('\n');
    expect(download.suggestedFilename()).toMatch(/^asrun-asrun-news-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv[0]).toMatch(/^channel,start,end,duration_ms,kind,id,title,/);
    const csvStarts = csv.slice(1).map((line) => Date.parse(line.split(',')[1] ?? ''));
    expect(csvStarts.slice(0, aired.length)).toEqual(aired.map((e) => e.startMs));
  });

  it('starts over from half a minute ago in the page player, then goes back to live', async () => {
    await page.getByLabel('Start over from', { exact: true }).fill(String(START_OVER_MINUTES));
    await page.getByRole('button', { name: 'Start over', exact: true }).click();
    const asked = Date.parse(
      (await page
        .locator('[data-start-over]:not([data-start-over="live"])')
        .getAttribute('data-start-over'))!,
    );
    expect(Math.abs(Date.now() - START_OVER_MINUTES * 60_000 - asked)).toBeLessThan(15_000);
    const shifted = await waitFor(player, (p) => p.url.includes('start=') && p.currentTime > 1, {
      timeoutMs: 30_000,
      what: 'the start-over playlist to play',
    });
    await shot('start-over');
    expect(new URL(shifted.url).searchParams.get('start')).toBe(new Date(asked).toISOString());
    expect(shifted.type).toBe('EVENT');
    // The first fragment is the one on air at the moment asked, stamped with its original air time.
    expect(shifted.firstPdt).toBeGreaterThan(asked - SEGMENT_MS - 1);
    expect(shifted.firstPdt).toBeLessThanOrEqual(asked);
    expect(shifted.playingDate! - asked).toBeLessThan(30_000);
    console.info(
      `console as-run: start-over asked ${new Date(asked).toISOString()}, first fragment PDT ${new Date(shifted.firstPdt!).toISOString()}, on screen ${((Date.now() - shifted.playingDate!) / 1000).toFixed(1)} s behind now`,
    );

    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.locator('[data-start-over="live"]').waitFor();
    const live = await waitFor(player, (p) => !p.url.includes('start=') && p.currentTime > 1, {
      timeoutMs: 30_000,
      what: 'the live playlist to play again',
    });
    expect(live.type).not.toBe('EVENT');
    expect(live.live).toBe(true);
  });

  it("changes the source from the page: a 404 URL is saved with the API's warning, a malformed one refused", async () => {
    const source = page.locator('#edit-url');
    await source.fill(`${onair.origin.url}/no-such/master.m3u8`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    const warning = page.locator('#edit-warnings li[data-field="url"]');
    await warning.waitFor({ timeout: 15_000 });
    expect(await warning.getAttribute('data-code')).toBe('not_found');
    expect(await source.getAttribute('data-warned')).toBe('true');
    const stored = (await (await api(`/channel/${encodeURIComponent(channelId)}`)).json()) as { url: string };
    expect(stored.url).toBe(`${onair.origin.url}/no-such/master.m3u8`);
    await shot('source-warning');

    await source.fill('not a url');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#edit-error').waitFor();
    expect(await source.getAttribute('aria-invalid')).toBe('true');
    await shot('source-refused');
  });

  it("lists a schedule channel's as-run log from the schedule API", async () => {
    await page.goto(`${onair.system.urls.console}#/channel/s/${STUDIO}`);
    const aired = await asRun(true);
    const rows = await waitFor(
      shownRows,
      (r) => r.length >= aired.length && r.some((x) => x.title === 'Studio VOD'),
      {
        timeoutMs: 15_000,
        what: "the schedule channel's as-run table",
      },
    );
    await shot('schedule-asrun');
    expect(
      rows
        .slice(0, aired.length)
        .map(({ startMs, endMs, id, kind, title }) => ({ startMs, endMs, id, kind, title })),
    ).toEqual(aired.map(({ startMs, endMs, id, kind, title }) => ({ startMs, endMs, id, kind, title })));
    expect(rows.map((r) => r.title)).toContain('Studio VOD');
  });

  it('creates a channel with an interstitial preroll from the form and shows the warning for its 404 source', async () => {
    await page.goto(`${onair.system.urls.console}#/`);
    await page.getByLabel('Name').fill('asrun-broken');
    await page.getByLabel('VOD URL (HLS)').fill(`${onair.origin.url}/no-such/master.m3u8`);
    await page
      .getByLabel('Preroll URL (optional, Loop only)')
      .fill(`${onair.origin.url}/${onair.fixtures.preroll.path}`);
    await page.getByLabel('Preroll duration (ms)').fill('6000');
    await page.getByLabel('Preroll delivery').selectOption('interstitial');
    await page.getByRole('button', { name: 'Create channel' }).click();
    const warning = page.locator('#create-warnings li[data-field="url"]');
    await warning.waitFor({ timeout: 15_000 });
    expect(await warning.getAttribute('data-code')).toBe('not_found');
    expect(await page.locator('#url').getAttribute('data-warned')).toBe('true');
    await shot('create-warning');
    const listed = (await (await api('/channel')).json()) as { id: string; name: string }[];
    const made = listed.find((c) => c.name === 'asrun-broken');
    const stored = (await (await api(`/channel/${encodeURIComponent(made!.id)}`)).json()) as {
      opts?: { preroll?: { delivery?: string } };
    };
    expect(stored.opts?.preroll?.delivery).toBe('interstitial');
  });

  it('logged no console errors but the refusal it asked for', () => {
    const unexpected = consoleErrors.filter(
      // the refused PATCH, made on purpose
      (e) => !(/status of 400/.test(e.text) && e.url.endsWith(`/channel/${encodeURIComponent(channelId)}`)),
    );
    expect(unexpected).toEqual([]);
  });
});
