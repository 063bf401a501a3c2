/**
 * A preroll delivered as an HLS interstitial: the content's first segment carries an EXT-X-DATERANGE
 * of CLASS "com.apple.hls.interstitial" naming the ad's playlist, identical in every rendition; the
 * ad's segments are not in the stream and no ad markers are.
 */
import { describe, expect, it } from 'vitest';
import { vodDraft } from '../../engine-container/src/playout/drafts';
import { computeWindow } from '../../engine-container/src/playout/window';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import { referenceTrack } from '../../engine-container/src/vod/parsed-vod';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { ladderOf, makeVod, TestLog } from '../engine/helpers/log';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist } from '../support/live-rules';

const AD = 'https://ads.test/break/master.m3u8';
const vod = (uri: string, n: number) => makeVod(uri, [{ bandwidth: 1, segmentsMs: Array(n).fill(2000) }]);
const dateRanges = (text: string) => text.split('\n').filter((l) => l.startsWith('#EXT-X-DATERANGE'));

describe('rendering an interstitial ad', () => {
  it("writes the interstitial date range on the item's first segment, after its date, in a fixed order", () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod('https://o.test/a/m.m3u8', 2));
    const show = vod('https://o.test/show/m.m3u8', 3);
    const draft = vodDraft(referenceTrack(show), { kind: 'vod', id: 'show', title: 'show', uri: show.uri });
    const item = log.appendDraft(show, { ...draft, interstitial: { uri: AD, durationMs: 6000 } });
    const text = renderMediaPlaylist(computeWindow(log.items, log.resolve, 'v0', log.t0 + 12_000, 60_000));
    const start = new Date(item.startMs).toISOString();
    expect(text).toContain(
      `#EXT-X-PROGRAM-DATE-TIME:${start}\n` +
        `#EXT-X-DATERANGE:ID="interstitial-1-${item.startMs}",CLASS="com.apple.hls.interstitial",` +
        `START-DATE="${start}",X-ASSET-URI="${AD}",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=6.000,` +
        'X-RESTRICT="SKIP,JUMP"\n#EXTINF:2.000,\nhttps://o.test/show/v0-0.ts',
    );
    expect(dateRanges(text)).toHaveLength(1);
    expect(text).not.toContain('#EXT-X-CUE');
    expect(checkPlaylist(parseMediaPlaylist(text))).toEqual([]);
  });

  it('writes the same date range, on the segment dated as it says, in video, audio and subtitle playlists', () => {
    const ladder = ladderOf([1], {
      audio: [{ groupId: 'aud', language: 'en', name: 'en', default: 1 }],
      subtitles: [{ language: 'en', name: 'en', default: 1 }],
    });
    const log = TestLog.withLadder(ladder, 3);
    const av = (uri: string) =>
      makeVod(
        uri,
        [{ bandwidth: 1, segmentsMs: Array(6).fill(2000) }],
        [{ language: 'en', segmentsMs: [3000, 3000, 3000, 3000] }],
        [{ language: 'en', segmentsMs: [4000, 4000, 4000] }],
      );
    log.play(av('https://o.test/a/m.m3u8'));
    const show = av('https://o.test/show/m.m3u8');
    const draft = vodDraft(referenceTrack(show), { kind: 'vod', id: 'show', title: 'show', uri: show.uri });
    const item = log.appendDraft(show, { ...draft, interstitial: { uri: AD } });
    expect(log.keys).toHaveLength(3);
    const texts = log.keys.map((key) =>
      renderMediaPlaylist(computeWindow(log.items, log.resolve, key, log.t0 + 24_000, 60_000)),
    );
    const start = new Date(item.startMs).toISOString();
    for (const text of texts) {
      const ranges = dateRanges(text);
      expect(ranges).toEqual(dateRanges(texts[0]!));
      expect(ranges).toHaveLength(1);
      expect(text).toContain(`#EXT-X-PROGRAM-DATE-TIME:${start}\n${ranges[0]}\n`);
    }
  });

  it('leaves X-PLAYOUT-LIMIT out when the whole ad plays, and strips quotes from the asset URI', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const show = vod('https://o.test/show/m.m3u8', 2);
    const draft = vodDraft(referenceTrack(show), { kind: 'vod', id: 'show', title: 'show', uri: show.uri });
    log.appendDraft(show, { ...draft, interstitial: { uri: 'https://ads.test/"x"/m.m3u8' } });
    const text = renderMediaPlaylist(computeWindow(log.items, log.resolve, 'v0', log.t0 + 4000, 60_000));
    const [range] = dateRanges(text);
    expect(range).toContain(
      'X-ASSET-URI="https://ads.test/x/m.m3u8",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP"',
    );
  });
});

describe('a channel whose preroll is delivered as an interstitial', () => {
  const channel = (delivery: 'interstitial' | 'spliced') => {
    const world = fakeWorld();
    const am = new ScriptedAssetManager(() => vodResponse(world.a));
    const { core, clock } = makeCore(am, { fetch: world.origin.fetch });
    const handle = core.upsertChannel({
      id: 'ch',
      name: 'ch',
      options: { preroll: { uri: world.preroll, durationMs: 4000, delivery } },
    });
    return { ...handle, world, clock };
  };

  it('plays no preroll item and names the preroll on every VOD item', async () => {
    const { playout, playlists, world } = channel('interstitial');
    await playlists.master();
    const items = playout.tail.items;
    expect(items.length).toBeGreaterThan(1);
    expect(items.map((i) => i.kind).filter((k) => k !== 'vod')).toEqual([]);
    for (const i of items) expect(i.interstitial).toEqual({ uri: world.preroll, durationMs: 4000 });
  });

  it('carries the same interstitial date ranges, on segments dated as they say, in every rendition', async () => {
    const { playlists, world } = channel('interstitial');
    const [v0, v1] = [await playlists.mediaPlaylist('v0'), await playlists.mediaPlaylist('v1')];
    const ranges = dateRanges(v0);
    expect(ranges.length).toBeGreaterThan(0);
    expect(dateRanges(v1)).toEqual(ranges);
    for (const text of [v0, v1]) {
      expect(parseMediaPlaylist(text).segments.filter((s) => s.uri.includes('/ad/'))).toEqual([]);
      for (const range of ranges) {
        const start = /START-DATE="([^"]+)"/.exec(range)![1];
        expect(text).toContain(`#EXT-X-PROGRAM-DATE-TIME:${start}\n${range}\n`);
        expect(range).toContain(`X-ASSET-URI="${world.preroll}"`);
      }
    }
  });

  it('still splices the preroll by default', async () => {
    const { playlists } = channel('spliced');
    const text = await playlists.mediaPlaylist('v0');
    expect(parseMediaPlaylist(text).segments.some((s) => s.uri.includes('/ad/'))).toBe(true);
    expect(text).not.toContain('com.apple.hls.interstitial');
  });
});
