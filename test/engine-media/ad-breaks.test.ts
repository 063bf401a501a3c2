import { describe, expect, it } from 'vitest';
import { ScheduleChannelManager } from '../../engine-container/host/schedule/schedule-channel-manager';
import { adBreakItems, placeBreaks } from '../../engine-container/src/playout/ad-break-plan';
import { interstitialPieces, splicedPieces } from '../../engine-container/src/playout/ad-breaks';
import type { VodPlan } from '../../engine-container/src/playout/drafts';
import { computeWindow } from '../../engine-container/src/playout/window';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import type { VodResponse } from '../../engine-container/src/types';
import { type ParsedVod, referenceTrack } from '../../engine-container/src/vod/parsed-vod';
import { ladderOf, makeVod, TestLog } from '../engine/helpers/log';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist } from '../support/live-rules';

const CONTENT = 'https://o.test/show/m.m3u8';
const AD = 'https://ads.test/ad/m.m3u8';
const content = makeVod(CONTENT, [{ bandwidth: 1, segmentsMs: Array(10).fill(2000) }]);
const ad = makeVod(AD, [{ bandwidth: 1, segmentsMs: [2000, 2000, 2000] }]);
const plan: VodPlan = {
  kind: 'vod',
  id: 'e1',
  title: 'Show',
  uri: CONTENT,
  timedMetadata: { title: 'Show' },
};

function deps(vods: Record<string, ParsedVod> = { [AD]: ad }) {
  const reported: VodResponse[] = [];
  return {
    reported,
    load: async (uri: string) => {
      const vod = vods[uri];
      if (!vod) throw new Error(`${uri}: 404`);
      return vod;
    },
    report: (_err: unknown, failed: VodResponse) => {
      reported.push(failed);
    },
  };
}

describe('the pieces of a programme with spliced breaks', () => {
  it('cuts the content at the break, plays the ad, and resumes the content where it was cut', () => {
    expect(splicedPieces([{ offsetMs: 6000, durationMs: 4000 }], 0, 24_000)).toEqual([
      { kind: 'content', offsetMs: 0, durationMs: 6000 },
      { kind: 'ad', breakIndex: 0, offsetMs: 0, durationMs: 4000 },
      { kind: 'content', offsetMs: 6000, durationMs: 14_000 },
    ]);
  });

  it('joins a programme after a break at the content the programme has reached', () => {
    expect(splicedPieces([{ offsetMs: 6000, durationMs: 4000 }], 12_000, 4000)).toEqual([
      { kind: 'content', offsetMs: 8000, durationMs: 4000 },
    ]);
  });

  it('joins a programme inside a break at the rest of the ad', () => {
    expect(splicedPieces([{ offsetMs: 6000, durationMs: 4000 }], 8000, 4000)).toEqual([
      { kind: 'ad', breakIndex: 0, offsetMs: 2000, durationMs: 2000 },
      { kind: 'content', offsetMs: 6000, durationMs: 2000 },
    ]);
  });

  it('plays a break at offset 0 before the content, as a preroll', () => {
    expect(splicedPieces([{ offsetMs: 0, durationMs: 2000 }], 0, 6000)).toEqual([
      { kind: 'ad', breakIndex: 0, offsetMs: 0, durationMs: 2000 },
      { kind: 'content', offsetMs: 0, durationMs: 4000 },
    ]);
  });
});

describe('the pieces of content with interstitial breaks', () => {
  it('splits the content at the break without cutting any of it, the later piece naming the break', () => {
    expect(interstitialPieces([{ offsetMs: 6000, durationMs: 0 }], 0, 20_000)).toEqual([
      { kind: 'content', offsetMs: 0, durationMs: 6000 },
      { kind: 'content', offsetMs: 6000, durationMs: 14_000, interstitial: 0 },
    ]);
  });

  it('leaves out a break the item starts after, and one at or past its end', () => {
    const breaks = [
      { offsetMs: 2000, durationMs: 0 },
      { offsetMs: 20_000, durationMs: 0 },
    ];
    expect(interstitialPieces(breaks, 4000, 16_000)).toEqual([
      { kind: 'content', offsetMs: 4000, durationMs: 16_000 },
    ]);
  });

  it('names a break at the item start on its first piece', () => {
    expect(interstitialPieces([{ offsetMs: 4000, durationMs: 0 }], 4000, 2000)).toEqual([
      { kind: 'content', offsetMs: 4000, durationMs: 2000, interstitial: 0 },
    ]);
  });
});

describe('placing breaks on the content', () => {
  it('moves each break to the next segment boundary, in content order, dropping one past the end and a second on the same boundary', () => {
    const placed = placeBreaks(referenceTrack(content), [
      { offsetMs: 9000, durationMs: 6000, uri: AD },
      { offsetMs: 5000, durationMs: 6000, uri: AD },
      { offsetMs: 5500, durationMs: 6000, uri: AD },
      { offsetMs: 20_000, durationMs: 6000, uri: AD },
    ]);
    expect(placed.map((b) => b.offsetMs)).toEqual([6000, 10_000]);
  });
});

describe('a VOD with ad breaks as playout items', () => {
  const breaks = [{ offsetMs: 6000, durationMs: 4000, uri: AD }];

  it('splices: content to the break, the ad as a preroll item, the content from the break on', async () => {
    const planned = await adBreakItems(deps(), {
      vod: content,
      plan: { ...plan, desiredDurationMs: 24_000 },
      breaks,
      delivery: 'spliced',
    });
    expect(planned.map(({ draft }) => [draft.kind, draft.uri, draft.offsetMs, draft.durationMs])).toEqual([
      ['vod', CONTENT, 0, 6000],
      ['preroll', AD, 0, 4000],
      ['vod', CONTENT, 6000, 14_000],
    ]);
    expect(planned[1]!.vod).toBe(ad);
    expect(planned.map(({ draft }) => draft.timedMetadata)).toEqual([
      { title: 'Show' },
      undefined,
      undefined,
    ]);
  });

  it('plays the whole programme when no duration is asked: the content and the ad', async () => {
    const planned = await adBreakItems(deps(), { vod: content, plan, breaks, delivery: 'spliced' });
    expect(planned.reduce((sum, p) => sum + p.draft.durationMs, 0)).toBe(24_000);
  });

  it('plays the content uncut and reports the ad when the ad cannot be loaded', async () => {
    const d = deps({});
    const planned = await adBreakItems(d, { vod: content, plan, breaks, delivery: 'spliced' });
    expect(planned.map(({ draft }) => [draft.kind, draft.offsetMs, draft.durationMs])).toEqual([
      ['vod', 0, 20_000],
    ]);
    expect(d.reported.map((r) => r.uri)).toEqual([AD]);
  });

  it('keeps the breaks whose ads load when another cannot, each named by its place in the entry', async () => {
    const d = deps();
    const two = [{ offsetMs: 4000, durationMs: 2000, uri: 'https://ads.test/gone/m.m3u8' }, ...breaks];
    const planned = await adBreakItems(d, { vod: content, plan, breaks: two, delivery: 'spliced' });
    expect(planned.map(({ draft }) => [draft.kind, draft.id, draft.offsetMs, draft.durationMs])).toEqual([
      ['vod', 'e1', 0, 6000],
      ['preroll', 'ad-break-1-6000', 0, 4000],
      ['vod', 'e1', 6000, 14_000],
    ]);
    expect(d.reported).toEqual([
      { id: 'ad-break-0-4000', title: 'ad break', uri: 'https://ads.test/gone/m.m3u8' },
    ]);
  });

  it('as an interstitial: the content split at the break, the later item continuing the stream and naming the ad', async () => {
    const planned = await adBreakItems(deps({}), { vod: content, plan, breaks, delivery: 'interstitial' });
    expect(planned.map(({ draft }) => draft)).toMatchObject([
      { kind: 'vod', offsetMs: 0, durationMs: 6000 },
      {
        kind: 'vod',
        offsetMs: 6000,
        durationMs: 14_000,
        continues: 1,
        interstitial: { uri: AD, durationMs: 4000 },
      },
    ]);
    expect(planned[0]!.draft.interstitial).toBeUndefined();
  });
});

describe('a VOD with an ad break, rendered', () => {
  const breaks = [{ offsetMs: 6000, durationMs: 4000, uri: AD }];
  const render = async (delivery: 'spliced' | 'interstitial') => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const planned = await adBreakItems(deps(), { vod: content, plan, breaks, delivery });
    for (const p of planned) log.appendDraft(p.vod, p.draft);
    return renderMediaPlaylist(computeWindow(log.items, log.resolve, 'v0', log.t0 + 30_000, 60_000));
  };
  const lines = (text: string) => text.split('\n');

  it('spliced: the ad segments between cue-out and cue-in, the content resuming at the segment it was cut at', async () => {
    const text = await render('spliced');
    const l = lines(text);
    const out = l.findIndex((x) => x.startsWith('#EXT-X-CUE-OUT:'));
    const back = l.indexOf('#EXT-X-CUE-IN');
    const uris = (from: number, to: number) => l.slice(from, to).filter((x) => x.startsWith('https://'));
    expect(l[out]).toBe('#EXT-X-CUE-OUT:DURATION=4.000');
    expect(uris(out, back)).toEqual(['https://ads.test/ad/v0-0.ts', 'https://ads.test/ad/v0-1.ts']);
    expect(uris(0, out).at(-1)).toBe('https://o.test/show/v0-2.ts');
    expect(uris(back, l.length)[0]).toBe('https://o.test/show/v0-3.ts');
    expect(checkPlaylist(parseMediaPlaylist(text))).toEqual([]);
  });

  it('as an interstitial: every content segment once, in order, with no discontinuity, the break on the segment at its offset', async () => {
    const text = await render('interstitial');
    const l = lines(text);
    const uris = l.filter((x) => x.startsWith('https://'));
    expect(uris).toEqual(Array.from({ length: 10 }, (_, i) => `https://o.test/show/v0-${i}.ts`));
    expect(l).not.toContain('#EXT-X-DISCONTINUITY');
    expect(text).not.toContain('#EXT-X-CUE');
    const at = l.findIndex((x) => x.includes('CLASS="com.apple.hls.interstitial"'));
    expect(l[at]).toContain(`START-DATE="${new Date(Date.UTC(2025, 0, 1) + 6000).toISOString()}"`);
    expect(l.slice(at).find((x) => x.startsWith('https://'))).toBe('https://o.test/show/v0-3.ts');
    expect(checkPlaylist(parseMediaPlaylist(text))).toEqual([]);
  });
});

describe("a schedule channel's ad delivery in the engine", () => {
  const manager = (listed: object) =>
    new ScheduleChannelManager({
      watch: { refresh: async () => [{ id: 'news', tenant: 't', title: 'News', ...listed }] },
      log: { warn: () => undefined } as never,
    });

  it('reaches the engine channel as options.adDelivery, and is absent (spliced) when the channel has none', async () => {
    expect((await manager({ adDelivery: 'interstitial' }).getChannels())[0]!.options).toEqual({
      adDelivery: 'interstitial',
    });
    expect((await manager({}).getChannels())[0]!.options).toBeUndefined();
  });
});
