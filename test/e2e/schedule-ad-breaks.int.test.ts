/**
 * Ad breaks of schedule entries, watched the way a viewer does: the real schedule service and engine
 * (`npm start`'s system), two schedule channels made through the API whose VOD entries (vod-a, 20 s)
 * each have an ad break 10 s in (the 6 s preroll fixture), one channel delivering its breaks as HLS
 * interstitials and one spliced, each played by hls.js in headless Chromium. The interstitial: hls.js's
 * own events (started, assetStarted, assetEnded, ended, primaryResumed) and the content after it; the
 * spliced break: the ad's segments between EXT-X-CUE-OUT and EXT-X-CUE-IN, played with no halt the
 * stream caused. The as-run API reports each break with its delivery. Runs where Chromium exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsRunView } from '../../core/asrun/asrun-entry';
import { waitFor } from '../../core/wait-for';
import {
  type BrowserPlayback,
  chromiumAvailable,
  chromiumSkipReason,
  playInBrowser,
} from '../support/browser';
import { type FixtureSystem, startFixtureSystem } from '../support/fixture-system';
import { mediaPlaylistOf, waitOnAir } from '../support/on-air';
import { describeStalls } from '../support/stall-kinds';
import * as adBreak from './support/interstitial-break';

const noChromium = !chromiumAvailable();
const skipReason = chromiumSkipReason();

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;

const api = async (path: string, body?: unknown) => {
  const res = await fetch(`${onair.system.urls.schedule}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

const BREAK_AT_MS = 10_000;
/**
 * The engine lists a TS item as long as hls.js plays it (docs/media.md, "Seams"): vod-a's first
 * segment is 21 ms longer (its audio starts that much before its video), so its 10 s boundary is
 * 10.021 s into the entry, and the 6 s preroll lasts 6.037 s (its audio also ends 16 ms after).
 */
const CUT_MS = BREAK_AT_MS + 21;
/** vod-a's segments (test/support/fixtures.ts). */
const SEGMENT_MS = 2000;
const AD_MS = 6037;
/** Each channel's entries' scheduled starts. */
const scheduledStartsMs = new Map<string, number[]>();

/** Entries of vod-a back to back from `fromMs` for four minutes, each with its ad break 10 s in. */
async function scheduleEntries(id: string, fromMs: number, entryMs: number): Promise<void> {
  const adBreaks = [
    { offset: BREAK_AT_MS, duration: 6000, url: `${onair.origin.url}/${onair.fixtures.preroll.path}` },
  ];
  for (let at = Math.ceil(fromMs / 1000) * 1000; at < fromMs + 240_000; at += entryMs) {
    const entry = {
      title: 'Show',
      type: 'VOD',
      url: `${onair.origin.url}/${onair.fixtures.vodA.path}`,
      start: new Date(at).toISOString(),
      end: new Date(at + entryMs).toISOString(),
      adBreaks,
    };
    const made = await api(`/channels/${id}/schedule`, entry);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    scheduledStartsMs.set(id, [...(scheduledStartsMs.get(id) ?? []), at]);
  }
}

/** Makes a channel of 2 s target duration (the player sits about 6 s behind live) and fills it. */
async function adChannel(id: string, adDelivery: string, entryMs: number): Promise<string> {
  const made = await api('/channels', { id, title: id, targetDuration: 2, adDelivery });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body).toMatchObject({ adDelivery });
  await scheduleEntries(id, Date.now() + 30_000, entryMs);
  return (made.body as { playback: string }).playback;
}

/** The item starts less than a segment from one of the channel's scheduled entry starts. */
const keptItsHead = (channelId: string, item: AsRunView) =>
  (scheduledStartsMs.get(channelId) ?? []).some((at) => Math.abs(item.startMs - at) < SEGMENT_MS);

/**
 * A channel made before its entries plays its slate until the engine learns of them; on a loaded machine
 * a slate planned before then may run past the first entry's start, and the engine joins that entry
 * late (1.2 s in a quiet run). An entry joined late plays from the segment that holds its scheduled
 * offset (playout/drafts.ts vodDraft), so it keeps its head while it is less than a segment late. Every
 * entry also runs a little past its end (a spliced one 26.069 s of its 26: a VOD lasts as long as its
 * media), so each is joined later than the one before: one joined a segment late or more plays without
 * its first segment (a clean-clone run, 2026-11-29: 8,000 ms of content before the break instead of
 * 10,021). The checks of a break's place take an entry that kept its head: its content starts less than
 * a segment from the entry's scheduled start.
 *
 * The channel's as-run log once it reports an ad break of that delivery in an entry that followed
 * another back to back, and where that break is: the entry's first 10 s end there.
 */
async function asRunWithBreak(id: string, delivery: string) {
  const find = (entries: AsRunView[]) =>
    entries.findIndex((e, k) => {
      const [previous, before] = [entries[k - 2], entries[k - 1]];
      return (
        e.adBreak?.delivery === delivery &&
        before?.kind === 'vod' &&
        before.endMs === e.startMs &&
        keptItsHead(id, before) &&
        previous?.kind === 'vod' &&
        previous.id !== before.id &&
        previous.endMs === before.startMs
      );
    });
  const entries = await waitFor(
    async () => {
      const start = new Date(Date.now() - 3600_000).toISOString();
      return (await api(`/channels/${id}/asrun?start=${start}`)).body as AsRunView[];
    },
    (entries) => find(entries) >= 0,
    { timeoutMs: 90_000, intervalMs: 1000, what: `an ${delivery} ad break in the as-run log of ${id}` },
  );
  return { entries, k: find(entries) };
}

const context = (play: BrowserPlayback) =>
  adBreak.context(
    play,
    `frags: ${JSON.stringify(play.raw.frags.map((f) => f.url.replace(onair.origin.url, '')))}`,
  );

/**
 * Ends the viewing once 4 s of content played after an ad that content led into (a player that joins
 * inside one break plays on to the next: the entries repeat every 26 s).
 */
const PAST_THE_SPLICED_AD = `(() => {
  const r = window.__report;
  const ad = r.frags.findIndex((f, i) => f.url.includes('/preroll/') && r.frags.slice(0, i).some((g) => g.url.includes('/vod-a/')));
  const after = ad >= 0 && r.frags.slice(ad).find((f) => f.url.includes('/vod-a/'));
  const last = r.samples[r.samples.length - 1];
  return !!after && after.start !== undefined && !!last && last.currentTime >= after.start + 4;
})()`;

let interstitialMaster: string;
let splicedMaster: string;

describe(`ad breaks of schedule entries, played by hls.js in Chromium${skipReason}`, () => {
  beforeAll(async () => {
    // Each entry's VOD and ad are fetched once as HLS when it is made: on a loaded machine the
    // origin may take longer than the 5 s default to answer.
    onair = await startFixtureSystem(['schedule', 'engine'], {
      ENGINE_CHANNEL_REFRESH_MS: '500',
      SCHEDULE_FETCH_TIMEOUT_MS: '20000',
    });
    // Both channels fill their window while the first is checked and played.
    interstitialMaster = await adChannel('breaks-interstitial', 'interstitial', 20_000);
    // Spliced, an entry holds its content and its ad: 26 s.
    splicedMaster = await adChannel('breaks-spliced', 'spliced', 26_000);
  }, 120_000);

  afterAll(async () => {
    await onair?.stop();
  });

  it('marks the break 10 s into the entry with an interstitial, in the content that is not cut', async () => {
    await waitOnAir(interstitialMaster, 60_000);
    const startOf = (l: string) => Date.parse(/START-DATE="([^"]+)"/.exec(l)![1]!);
    const isInterstitial = (l: string) => l.includes('CLASS="com.apple.hls.interstitial"');
    // The first interstitial after the EXT-X-DATERANGE (its schedule metadata) of an entry that starts
    // with vod-a's first segment: one played whole.
    const wholeEntryBreak = (lines: string[]) => {
      const entry = lines.findIndex(
        (l, i) =>
          l.includes('X-SCHEDULE-ENTRY-ID') &&
          lines
            .slice(i)
            .find((u) => u.startsWith('http'))
            ?.endsWith('/vod-a/180p/seg_000.ts') === true,
      );
      const at = entry < 0 ? -1 : lines.findIndex((l, i) => i > entry && isInterstitial(l));
      return { entry, at };
    };
    const text = await waitFor(
      () => mediaPlaylistOf(interstitialMaster),
      (body) => wholeEntryBreak(body.split('\n')).at >= 0,
      { timeoutMs: 90_000, intervalMs: 1000, what: 'an interstitial of an entry played whole' },
    );
    const lines = text.split('\n');
    const { entry, at } = wholeEntryBreak(lines);
    const tag = lines[at]!;
    expect(tag).toContain(`X-ASSET-URI="${onair.origin.url}/${onair.fixtures.preroll.path}"`);
    expect(tag).toContain('X-RESUME-OFFSET=0');
    // 10 s after the entry's own EXT-X-DATERANGE starts, and the first interstitial since.
    expect(lines.slice(entry, at).findLast((l) => l.includes('X-SCHEDULE-ENTRY-ID'))).toBe(lines[entry]);
    expect(startOf(tag) - startOf(lines[entry]!)).toBe(CUT_MS);
    // The content runs on through the break: vod-a's segment 5 follows its segment 4, no discontinuity.
    const uris = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith('http'));
    const next = uris.find(([, i]) => i > at)!;
    const previous = uris.findLast(([, i]) => i < at)!;
    expect(previous[0]).toMatch(/\/vod-a\/180p\/seg_004\.ts$/);
    expect(next[0]).toMatch(/\/vod-a\/180p\/seg_005\.ts$/);
    expect(lines.slice(previous[1], next[1])).not.toContain('#EXT-X-DISCONTINUITY');
  }, 180_000);

  it.skipIf(noChromium)(
    'hls.js starts the interstitial, plays the ad from its own playlist and returns to the content',
    async () => {
      const play = await playInBrowser(interstitialMaster, {
        seconds: 60,
        until: adBreak.RESUMED_AND_PLAYING,
      });
      const { steps, started, sequence } = adBreak.played(play);
      console.info(
        `schedule interstitial (${play.wallSeconds.toFixed(1)} s played, ${play.stalls} halts): ${adBreak.describeSteps(steps)}`,
      );
      expect(started, context(play)).toBeDefined();
      expect(sequence.slice(0, 5), context(play)).toEqual(adBreak.WHOLE);
      expect(steps.find((e) => e.type === 'assetStarted')!.assetUri).toBe(
        `${onair.origin.url}/${onair.fixtures.preroll.path}`,
      );
      expect(play.fatalErrors, context(play)).toEqual([]);
      // The ad never was in the channel's stream; its content played on after the break.
      expect(play.raw.frags.filter((f) => f.url.includes('/preroll/'))).toEqual([]);
      const resumedAt = steps.find((e) => e.type === 'primaryResumed')!.atMs;
      expect(
        play.raw.frags.some((f) => f.atMs > resumedAt && f.url.includes('/vod-a/')),
        context(play),
      ).toBe(true);
    },
    180_000,
  );

  it.skipIf(noChromium)(
    'a player without interstitial support plays the content across the break, uncut and without the ad',
    async () => {
      // Ends once the playhead went through vod-a's segment 4 into its segment 5: across a break point.
      const play = await playInBrowser(interstitialMaster, {
        seconds: 60,
        hlsConfig: { enableInterstitialPlayback: false },
        until: `(() => {
          const r = window.__report;
          const f = r.frags;
          const i = f.findIndex((x, n) => n > 0 && x.url.endsWith('/seg_005.ts') && f[n - 1].url.endsWith('/seg_004.ts'));
          if (i < 1 || f[i].start === undefined || f[i - 1].start === undefined) return false;
          const k = r.samples.findIndex((x) => x.currentTime >= f[i - 1].start && x.currentTime < f[i].start - 0.1);
          return k >= 0 && r.samples.slice(k).some((x) => x.currentTime >= f[i].start + 2);
        })()`,
      });
      console.info(
        `schedule interstitial, player without interstitials: ${play.playedSeconds.toFixed(1)} s played, ${play.stalls} halts (${play.streamStalls.length} the stream's)`,
      );
      expect(play.fatalErrors, context(play)).toEqual([]);
      expect(play.raw.interstitials.filter((e) => e.type === 'started')).toEqual([]);
      expect(play.raw.frags.filter((f) => f.url.includes('/preroll/'))).toEqual([]);
      const urls = play.raw.frags.map((f) => f.url);
      const across = urls.findIndex(
        (u, n) => n > 0 && u.endsWith('/seg_005.ts') && urls[n - 1]!.endsWith('/seg_004.ts'),
      );
      expect(across, context(play)).toBeGreaterThan(0);
      // The same stream across the break (no discontinuity between the two segments), and the playhead
      // went through it.
      const [before, after] = [play.raw.frags[across - 1]!, play.raw.frags[across]!];
      expect(after.cc).toBe(before.cc);
      const k = play.raw.samples.findIndex(
        (x) => x.currentTime >= before.start! && x.currentTime < after.start! - 0.1,
      );
      expect(k, context(play)).toBeGreaterThanOrEqual(0);
      expect(play.raw.samples.slice(k).some((x) => x.currentTime >= after.start! + 2)).toBe(true);
      expect(play.streamStalls, context(play)).toEqual([]);
    },
    180_000,
  );

  it('reports the interstitial break in the as-run log, with its delivery', async () => {
    const { entries, k } = await asRunWithBreak('breaks-interstitial', 'interstitial');
    const withBreak = entries[k]!;
    expect(withBreak).toMatchObject({
      kind: 'vod',
      adBreak: { durationMs: 6000, cueOutMs: withBreak.startMs },
    });
    // The content before it is the same entry's first 10 s.
    const before = entries.find((e) => e.endMs === withBreak.startMs)!;
    expect(before).toMatchObject({ kind: 'vod', id: withBreak.id, durationMs: CUT_MS });
  }, 120_000);

  it('splices the ad between EXT-X-CUE-OUT and EXT-X-CUE-IN, the content resuming where it was cut', async () => {
    await waitOnAir(splicedMaster, 60_000);
    const text = await waitFor(
      () => mediaPlaylistOf(splicedMaster),
      (body) =>
        /#EXT-X-CUE-OUT:[\s\S]*#EXT-X-CUE-IN[\s\S]*\/vod-a\//.test(body) &&
        /\/vod-a\/[\s\S]*#EXT-X-CUE-OUT:/.test(body),
      { timeoutMs: 90_000, intervalMs: 1000, what: 'a whole spliced break in the media playlist' },
    );
    const lines = text.split('\n');
    const out = lines.findIndex((l) => l.startsWith('#EXT-X-CUE-OUT:'));
    const back = lines.findIndex((l, i) => i > out && l === '#EXT-X-CUE-IN');
    const uris = (from: number, to: number) => lines.slice(from, to).filter((l) => l.startsWith('http'));
    expect(lines[out]).toBe(`#EXT-X-CUE-OUT:DURATION=${(AD_MS / 1000).toFixed(3)}`);
    expect(uris(out, back)).toHaveLength(3);
    expect(uris(out, back).every((u) => u.includes('/preroll/'))).toBe(true);
    expect(uris(0, out).at(-1)).toMatch(/\/vod-a\/180p\/seg_004\.ts$/);
    expect(uris(back, lines.length)[0]).toMatch(/\/vod-a\/180p\/seg_005\.ts$/);
  }, 180_000);

  it.skipIf(noChromium)(
    "hls.js plays the spliced ad's segments and the content after them, with no halt the stream caused",
    async () => {
      const play = await playInBrowser(splicedMaster, { seconds: 60, until: PAST_THE_SPLICED_AD });
      const urls = play.raw.frags.map((f) => f.url);
      // The first ad fragment after content: the content → ad seam, then ad → content.
      const ad = urls.findIndex(
        (u, i) => u.includes('/preroll/') && urls.slice(0, i).some((v) => v.includes('/vod-a/')),
      );
      console.info(
        `schedule spliced break: ${play.playedSeconds.toFixed(1)} s played in ${play.wallSeconds.toFixed(1)} s, ` +
          `${play.stalls} halts (${play.streamStalls.length} the stream's), ${urls.filter((u) => u.includes('/preroll/')).length} ad fragments` +
          (play.judgedStalls.length ? `\n${describeStalls(play.judgedStalls)}` : ''),
      );
      expect(play.fatalErrors, context(play)).toEqual([]);
      expect(ad, context(play)).toBeGreaterThan(0);
      expect(
        urls.slice(0, ad).some((u) => u.includes('/vod-a/')),
        context(play),
      ).toBe(true);
      expect(
        urls.slice(ad).some((u) => u.includes('/vod-a/')),
        context(play),
      ).toBe(true);
      expect(play.streamStalls, context(play)).toEqual([]);
    },
    180_000,
  );

  it('reports the spliced break in the as-run log: cue-out to cue-in, between the two runs of content', async () => {
    const { entries, k } = await asRunWithBreak('breaks-spliced', 'spliced');
    const [before, ad, after] = [entries[k - 1]!, entries[k]!, entries[k + 1]];
    expect(ad).toMatchObject({
      kind: 'preroll',
      durationMs: AD_MS,
      adBreak: { cueOutMs: ad.startMs, cueInMs: ad.endMs },
    });
    expect(before).toMatchObject({ kind: 'vod', endMs: ad.startMs, durationMs: CUT_MS });
    if (after) expect(after).toMatchObject({ kind: 'vod', id: before.id, startMs: ad.endMs });
  }, 120_000);
});
