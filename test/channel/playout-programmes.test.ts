/** A channel-service channel's guide from its playout (functions/channel/epg/playout-programmes.ts). */
import { describe, expect, it } from 'vitest';
import type { EpgEntry } from '../../core/epg/epg';
import { vodTitle } from '../../engine-container/host/onair-asset-manager';
import { playoutProgrammes } from '../../functions/channel/epg/playout-programmes';

const item = (type: string, start: number, end: number, title = 'film'): EpgEntry => ({
  title,
  type,
  start_time: start,
  end_time: end,
  url: `https://cdn/${title}.m3u8`,
});
const all = { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER };

describe('playoutProgrammes', () => {
  it('starts nothing before the channel was made', () => {
    const items = [item('VOD', 0, 1000, 'old'), item('VOD', 1000, 2000), item('VOD', 2000, 3000)];
    expect(playoutProgrammes(items, all, 1500).map((p) => [p.start_time, p.end_time])).toEqual([
      [1500, 2000],
      [2000, 3000],
    ]);
  });

  it('folds a preroll into the loop it leads in to: one programme per loop', () => {
    const items = [
      item('PREROLL', 0, 100, 'ad'),
      item('VOD', 100, 1100),
      item('PREROLL', 1100, 1200, 'ad'),
      item('VOD', 1200, 2200),
    ];
    expect(playoutProgrammes(items, all, 0).map((p) => [p.title, p.start_time, p.end_time])).toEqual([
      ['film', 0, 1100],
      ['film', 1100, 2200],
    ]);
  });

  it('keeps only what overlaps the range', () => {
    const items = [item('VOD', 0, 1000), item('SLATE', 1000, 2000, 'slate'), item('VOD', 2000, 3000)];
    expect(playoutProgrammes(items, { fromMs: 1000, toMs: 2000 }, 0).map((p) => p.type)).toEqual(['SLATE']);
  });
});

describe('vodTitle', () => {
  it.each([
    ['https://cdn.example/films/sintel/master.m3u8', 'sintel'],
    ['https://cdn.example/films/tears-of-steel.m3u8', 'tears-of-steel'],
    ['https://cdn.example/a/Big%20Buck/index.m3u8?token=x', 'Big Buck'],
    ['https://cdn.example/master.m3u8', 'cdn.example'],
  ])('names %s %s', (url, title) => {
    expect(vodTitle(url)).toBe(title);
  });
});
