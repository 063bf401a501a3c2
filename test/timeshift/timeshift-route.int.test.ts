/**
 * The time-shift parameters on a real engine's public playlist URLs (docs/timeshift.md): `from=programme`
 * through the master to a rendition, and hostile values of `start`, `end` and `from` answered 400 with
 * the parameter named, never 5xx. The channel's log is filled on a fake clock (half an hour).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAsRun } from '../../engine-container/src/asrun/build-asrun';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { HOUR, type PlayedEngine, startPlayedEngine } from './support/played-engine';

let played: PlayedEngine;

beforeAll(async () => {
  played = await startPlayedEngine({ hours: 0.5 });
}, 120_000);

afterAll(async () => {
  await played?.close();
});

const get = (path: string) => fetch(`${played.base}${path}`);

describe('?start=…&from=programme on the playback URLs', () => {
  it('starts every rendition at the first segment of the programme on air at start', async () => {
    const entries = buildAsRun(await played.engine.core.store.read('ch'), Date.now());
    const vod = entries.findLast((e) => e.title === 'vod-a' && e.endMs < Date.now() - 5 * 60_000)!;
    const at = new Date(vod.startMs + 9_000).toISOString();
    const master = await get(`/channels/ch/master.m3u8?start=${at}&from=programme`);
    expect(master.status).toBe(200);
    const variants = (await master.text()).split('\n').filter((l) => l.endsWith('&from=programme'));
    expect(variants.length).toBeGreaterThan(0);
    for (const uri of variants) {
      const media = await get(`/channels/ch/${uri}`);
      expect(media.status, uri).toBe(200);
      const first = parseMediaPlaylist(await media.text()).segments[0]!;
      expect(first.programDateTimeMs, uri).toBe(vod.startMs);
    }
  });
});

describe('hostile time-shift parameters', () => {
  const now = () => Date.now();
  const cases: Array<[string, () => string, string]> = [
    ['a word for start', () => 'start=yesterday', 'start'],
    ['a relative start', () => 'start=-3600', 'start'],
    ['an exponent', () => 'start=1e9', 'start'],
    ['four decimals', () => `start=${Math.floor(now() / 1000) - 60}.1234`, 'start'],
    ['an empty start', () => 'start=', 'start'],
    ['a start with no zone', () => 'start=2026-11-26T10:00:00', 'start'],
    ['a start in the future', () => `start=${Math.floor(now() / 1000) + 60}`, 'start'],
    ['a start before the retention', () => `start=${Math.floor((now() - 25 * HOUR) / 1000)}`, 'start'],
    ['a start in year 0', () => 'start=0000-01-01T00:00:00Z', 'start'],
    ['a 20-digit start', () => `start=${'9'.repeat(20)}`, 'start'],
    ['a 10,000-character start', () => `start=${'1'.repeat(10_000)}`, 'start'],
    [
      'an end before start',
      () => `start=${Math.floor(now() / 1000) - 600}&end=${Math.floor(now() / 1000) - 900}`,
      'end',
    ],
    [
      'an end equal to start',
      () => `start=${Math.floor(now() / 1000) - 600}&end=${Math.floor(now() / 1000) - 600}`,
      'end',
    ],
    ['a malformed end', () => `start=${Math.floor(now() / 1000) - 600}&end=soon`, 'end'],
    ['end without start', () => `end=${Math.floor(now() / 1000)}`, 'start'],
    ['from without start', () => 'from=programme', 'start'],
    ['an unknown from', () => `start=${Math.floor(now() / 1000) - 600}&from=epoch`, 'from'],
  ];

  for (const path of ['/channels/ch/master.m3u8', '/channels/ch/0.m3u8']) {
    it(`answers 400 naming the parameter on ${path}, for each`, async () => {
      for (const [what, query, field] of cases) {
        const res = await get(`${path}?${query()}`);
        const body = await res.text();
        expect([res.status, what], body).toEqual([400, what]);
        expect(JSON.parse(body).field, what).toBe(field);
      }
    });
  }
});
