import { describe, expect, it } from 'vitest';
import { nextStartMs } from '../../engine-container/src/playout/append';
import { loopDraft, vodDraft } from '../../engine-container/src/playout/drafts';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { referenceTrack } from '../../engine-container/src/vod/parsed-vod';
import { makeVod } from './helpers/log';

const ref = referenceTrack(
  makeVod('https://o.test/a/m.m3u8', [{ bandwidth: 1, segmentsMs: Array(10).fill(2000) }]),
);
const plan = { kind: 'vod' as const, id: 'a', title: 'a', uri: 'https://o.test/a/m.m3u8' };

describe('planning an item', () => {
  it('plays the whole VOD by default', () => {
    expect(vodDraft(ref, plan)).toMatchObject({ offsetMs: 0, durationMs: 20_000, loop: 0 });
  });

  it('snaps the offset down to the segment that holds it', () => {
    expect(vodDraft(ref, { ...plan, offsetMs: 4999 })).toMatchObject({ offsetMs: 4000, durationMs: 16_000 });
  });

  it('rounds a desired duration up to whole segments', () => {
    expect(vodDraft(ref, { ...plan, desiredDurationMs: 5000 }).durationMs).toBe(6000);
  });

  it('shortens a late item by at most diffCompensationRate of its length', () => {
    expect(vodDraft(ref, { ...plan, lateMs: 5000, diffCompensationRate: 0.5 }).durationMs).toBe(16_000);
    expect(vodDraft(ref, { ...plan, lateMs: 60_000, diffCompensationRate: 0.5 }).durationMs).toBe(10_000);
    expect(vodDraft(ref, { ...plan, lateMs: 60_000, diffCompensationRate: 0 }).durationMs).toBe(20_000);
  });

  it('fills a duration with a repeated VOD, rounded up to whole segments', () => {
    expect(loopDraft(ref, plan, { durationMs: 45_000 })).toMatchObject({ durationMs: 46_000, loop: 1 });
    expect(loopDraft(ref, plan, { repetitions: 3 }).durationMs).toBe(60_000);
  });
});

describe('where the next item starts', () => {
  const item = { startMs: 100_000, durationMs: 20_000 } as PlayoutItem;

  it('starts where the log ends', () => {
    expect(nextStartMs([item], 110_000, 60_000)).toBe(120_000);
  });

  it('starts one window back when the log is empty, so the first playlist is full', () => {
    expect(nextStartMs([], 110_000, 60_000)).toBe(50_000);
  });

  it('starts one window back when the log ended long ago, instead of replaying the missed time', () => {
    expect(nextStartMs([item], 1_000_000, 60_000)).toBe(940_000);
  });
});
