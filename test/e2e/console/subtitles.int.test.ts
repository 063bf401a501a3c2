/**
 * The console's player keeps a schedule channel's subtitles when a viewer joins just before its first
 * CMAF entry, in headless Chromium on the whole local system. hls.js starts three target durations
 * behind the live edge and loads that backlog in one burst; its subtitle loader runs ahead over the
 * slate's empty WebVTT, and hls.js 1.7.4 fails the entry's first WebVTT when the video's timestamps of
 * an earlier slate discontinuity arrive before the entry's, then loads no subtitle again
 * (console/src/player-session.ts, `onSubtitleFrag`). The slate's segments are answered 300 ms late
 * here so that the video is behind, as a slow origin or a loaded player makes it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../core/wait-for';
import { chromiumAvailable } from '../../support/browser';
import { channelUser, type FixtureSystem, startFixtureSystem } from '../../support/fixture-system';
import { waitOffSlate, waitOnAir } from '../../support/on-air';
import { type ConsoleBrowser, type ConsoleError, openConsoleBrowser } from './console-browser';

const CHANNEL = 'subtitled';
/** CMAF entries of the fixture, back to back, for longer than the test plays. */
const ENTRY_MS = 12_000;

let onair: FixtureSystem;
let browser: Browser;
let page: Page;
let shot: ConsoleBrowser['shot'];
const consoleErrors: ConsoleError[] = [];

const noChromium = !chromiumAvailable();

/** Each subtitle fragment hls.js processed, and whether it parsed, through the console's hls.js hook. */
const SUBTITLE_RECORDER = `
window.__subtitleFrags = [];
window.onairHlsCreated = (hls) =>
  hls.on('hlsSubtitleFragProcessed', (_e, data) =>
    window.__subtitleFrags.push({ success: data.success, url: data.frag.url }));
`;

/** The text of every cue on screen: the active cues of the video's showing text tracks. */
const CUES_SHOWN = `[...(document.querySelector('video')?.textTracks ?? [])]
  .filter((track) => track.mode === 'showing')
  .flatMap((track) => [...(track.activeCues ?? [])].map((cue) => cue.text))`;

beforeAll(async () => {
  if (noChromium) return;
  onair = await startFixtureSystem(['channel', 'schedule', 'engine', 'console'], {
    ENGINE_CHANNEL_REFRESH_MS: '500',
  });
  const { token } = await channelUser(onair.system, 'viewer@subtitled.test', 'Subtitled');
  ({ browser, page, shot } = await openConsoleBrowser({
    name: 'console-subtitles',
    token,
    initScripts: [SUBTITLE_RECORDER],
    errors: consoleErrors,
  }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await onair?.stop();
});

const schedule = (path: string, body: unknown) =>
  fetch(`${onair.system.urls.schedule}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe.skipIf(noChromium)('subtitles in the console’s player', () => {
  it('show the first entry’s cues to a viewer who joined on the slate just before it', {
    timeout: 240_000,
  }, async () => {
    const made = await schedule('/channels', {
      id: CHANNEL,
      title: 'Subtitled',
      subtitleTracks: [{ language: 'sv', name: 'Svenska', default: true }],
      slate: `${onair.origin.url}/${onair.fixtures.slate.path}`,
    });
    expect(made.status).toBe(201);
    const master = ((await made.json()) as { playback: string }).playback;
    const firstEntryAt = Math.ceil((Date.now() + 15_000) / 1000) * 1000;
    for (let at = firstEntryAt; at < firstEntryAt + 180_000; at += ENTRY_MS) {
      const entry = await schedule(`/channels/${CHANNEL}/schedule`, {
        title: 'cmaf',
        type: 'VOD',
        url: `${onair.origin.url}/${onair.fixtures.cmaf.path}`,
        start: new Date(at).toISOString(),
        end: new Date(at + ENTRY_MS).toISOString(),
      });
      expect(entry.status).toBe(201);
    }
    await waitOnAir(master, 30_000);
    // The entry on air for 16 s: a join's first 30 s start on the slate and cross into the entry.
    await waitOffSlate(master, 8, {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: 'the first entry on air for 16 s',
    });
    onair.origin.setFault(`/${onair.fixtures.slate.path.replace(/master\.m3u8$/, '')}`, {
      kind: 'delay',
      ms: 300,
    });

    await page.goto(`${onair.system.urls.console}#/channel/s/${CHANNEL}`);
    try {
      const cues = await waitFor(
        () => page.evaluate(CUES_SHOWN) as Promise<string[]>,
        (shown) => shown.some((text) => text.startsWith('Svenska subtitle')),
        { timeoutMs: 60_000, intervalMs: 250, what: 'a Swedish cue on screen' },
      );
      await shot('cue-shown');
      expect(cues.every((text) => text.startsWith('Svenska subtitle'))).toBe(true);
    } finally {
      const frags = (await page.evaluate('window.__subtitleFrags')) as { success: boolean; url: string }[];
      const failed = frags.filter((f) => !f.success);
      console.log(
        `${frags.length} subtitle fragments processed, ${failed.length} failed ${failed.map((f) => f.url).join(' ')}`,
      );
    }
    expect(consoleErrors).toEqual([]);
  });
});
