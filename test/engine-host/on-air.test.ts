import { describe, expect, it } from 'vitest';
import { DEFAULT_ON_AIR_OPTIONS, onAirAt } from '../../engine-container/host/schedule/on-air';
import type { FeedItem } from '../../functions/schedule/model';
import { toEntry } from '../../functions/schedule/planning/plan-schedule';

const t0 = Date.UTC(2024, 4, 1, 12);
const item = (id: string, durationMs: number): FeedItem => ({
  id,
  title: id.toUpperCase(),
  url: `http://cdn/${id}.m3u8`,
  durationMs,
});
// a: [t0, t0+5min), b: [t0+5min, t0+9min), then a gap of 45 s, c: [t0+9:45, t0+10:45)
const entries = [
  toEntry('ch', item('a', 300_000), t0, 'e-a'),
  toEntry('ch', item('b', 240_000), t0 + 300_000, 'e-b'),
  toEntry('ch', item('c', 60_000), t0 + 585_000, 'e-c'),
];

describe('onAirAt', () => {
  it('joins the entry on air mid-way at the right offset and cuts it at its end', () => {
    const { response, endsAtMs } = onAirAt(entries, t0 + 123_456);
    expect(response).toMatchObject({
      id: 'e-a',
      title: 'A',
      uri: 'http://cdn/a.m3u8',
      startOffset: 123_456,
      desiredDuration: 300_000 - 123_456,
      unixTs: t0 + 123_456,
    });
    expect(endsAtMs).toBe(t0 + 300_000);
  });

  it("passes an entry's ad breaks to the engine as points in its content", () => {
    const withAds = {
      ...entries[0]!,
      adBreaks: [{ offset: 60_000, duration: 30_000, url: 'http://ads/x.m3u8' }],
    };
    expect(onAirAt([withAds], t0 + 1000).response.adBreaks).toEqual([
      { offsetMs: 60_000, durationMs: 30_000, uri: 'http://ads/x.m3u8' },
    ]);
    expect(onAirAt(entries, t0 + 1000).response).not.toHaveProperty('adBreaks');
  });

  it('plays the next entry from its start at an entry boundary', () => {
    expect(onAirAt(entries, t0 + 300_000).response).toMatchObject({
      id: 'e-b',
      startOffset: 0,
      desiredDuration: 240_000,
    });
  });

  it('fills the time between entries with a gap that ends when the next entry starts', () => {
    const { response, endsAtMs } = onAirAt(entries, t0 + 540_000);
    expect(response).toMatchObject({ type: 'gap', desiredDuration: 45_000 });
    expect(endsAtMs).toBe(t0 + 585_000);
  });

  it('cuts a long gap so a schedule filled later is picked up', () => {
    const late = [toEntry('ch', item('z', 60_000), t0 + 3_600_000, 'e-z')];
    expect(onAirAt(late, t0).response).toMatchObject({
      type: 'gap',
      desiredDuration: DEFAULT_ON_AIR_OPTIONS.maxGapMs,
    });
  });

  it('plays a short gap when nothing is scheduled after the instant', () => {
    expect(onAirAt(entries, t0 + 700_000).response).toMatchObject({
      type: 'gap',
      desiredDuration: DEFAULT_ON_AIR_OPTIONS.openGapMs,
    });
    expect(onAirAt([], t0).response.type).toBe('gap');
  });

  it('skips the last fraction of a second of an entry and starts the next one', () => {
    const { response } = onAirAt(entries, t0 + 299_500);
    expect(response).toMatchObject({ id: 'e-b', startOffset: 0, unixTs: t0 + 300_000 });
  });

  it('carries the entry as timed metadata for an EXT-X-DATERANGE', () => {
    expect(onAirAt(entries, t0).response.timedMetadata).toEqual({
      title: 'A',
      'schedule-entry-id': 'e-a',
      'schedule-start': new Date(t0).toISOString(),
      'schedule-end': new Date(t0 + 300_000).toISOString(),
      'channel-id': 'ch',
    });
  });
});

describe('onAirAt with manual entries', () => {
  const manual = { ...toEntry('ch', item('m', 60_000), t0 + 120_000, 'm-1') };
  const live = { ...toEntry('ch', item('l', 60_000), t0 + 30_000, 'm-2'), type: 'LIVE' as const };

  it('cuts the older entry where a manual entry starts over it, plays it, then resumes the older one where the clock is', () => {
    const withManual = [...entries, manual];
    expect(onAirAt(withManual, t0).response).toMatchObject({ id: 'e-a', desiredDuration: 120_000 });
    expect(onAirAt(withManual, t0 + 120_000).response).toMatchObject({ id: 'm-1', desiredDuration: 60_000 });
    expect(onAirAt(withManual, t0 + 180_000).response).toMatchObject({ id: 'e-a', startOffset: 180_000 });
  });

  it('leaves LIVE entries to the stream switch manager', () => {
    expect(onAirAt([...entries, live], t0 + 40_000).response).toMatchObject({
      id: 'e-a',
      startOffset: 40_000,
    });
  });
});
