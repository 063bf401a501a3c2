/**
 * Ad breaks of schedule entries over real HTTP on DynamoDB Local: a channel's `adDelivery`, a VOD
 * entry's `adBreaks` stored and listed, and every rule a 400 naming its field; an ad URL is a user's
 * URL, fetched only through the guarded fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/schedule/handler';
import { type Gateway, startGateway } from '../../local/gateway';
import { ensureFixtures } from '../support/fixtures';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { http } from './support/http';

let cloud: LocalCloud;
let gateway: Gateway;
let origin: StaticServer;
let vodUrl: string;
let adUrl: string;

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  vodUrl = `${origin.url}/${fixtures.vodA.path}`;
  adUrl = `${origin.url}/${fixtures.preroll.path}`;
  // The fixtures are on localhost: the guarded fetch allows them only when told so.
  cloud = await startTestCloud({ ALLOW_PRIVATE_URLS: 'true' });
  gateway = await startGateway('schedule', handler, 0);
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
  await origin?.close();
});

const api = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
  http(`${gateway.url}/api/v1${path}`, { method, body });

let channels = 0;
async function channel(extra: Record<string, unknown> = {}): Promise<string> {
  const id = `ads-${++channels}`;
  const made = await api('/channels', { id, title: 'Ads', ...extra });
  expect(made.status).toBe(201);
  return id;
}

const start = () => new Date(Date.now() + 3600_000).toISOString();
const vodEntry = (adBreaks: unknown, end = true) => {
  const s = start();
  return {
    title: 'Show',
    type: 'VOD',
    url: vodUrl,
    start: s,
    ...(end ? { end: new Date(Date.parse(s) + 20_000).toISOString() } : {}),
    adBreaks,
  };
};

describe("a schedule channel's ad delivery", () => {
  it('is stored and returned: interstitial when asked, absent (spliced) otherwise', async () => {
    const id = await channel({ adDelivery: 'interstitial' });
    expect((await api(`/channels/${id}`)).body).toMatchObject({ adDelivery: 'interstitial' });
    const plain = await channel();
    expect((await api(`/channels/${plain}`)).body).not.toHaveProperty('adDelivery');
    const all = (await api('/channels?tenant=*')).body as { id: string; adDelivery?: string }[];
    expect(all.find((c) => c.id === id)?.adDelivery).toBe('interstitial');
  });

  it('refuses any other value with 400 naming adDelivery', async () => {
    const res = await api('/channels', { id: 'ads-bad', title: 'Ads', adDelivery: 'overlay' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'adDelivery' });
  });
});

describe("a VOD entry's ad breaks", () => {
  it('are stored with the entry and listed by the schedule', async () => {
    const id = await channel();
    const adBreaks = [
      { offset: 6000, duration: 6000, url: adUrl },
      { offset: 12_000, duration: 4000, url: adUrl },
    ];
    const made = await api(`/channels/${id}/schedule`, vodEntry(adBreaks, false));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ adBreaks, duration: 20 });
    const day = (made.body as { start: string }).start.slice(0, 10);
    const listed = (await api(`/channels/${id}/schedule?date=${day}`)).body as { adBreaks?: unknown }[];
    expect(listed.map((e) => e.adBreaks)).toEqual([adBreaks]);
  });

  const refusals: [string, unknown, string][] = [
    [
      'more than 20',
      Array.from({ length: 21 }, (_, i) => ({
        offset: i * 100,
        duration: 10,
        url: 'https://ads.example/a.m3u8',
      })),
      'adBreaks',
    ],
    [
      'out of order',
      [
        { offset: 8000, duration: 1000, url: 'https://ads.example/a.m3u8' },
        { offset: 4000, duration: 1000, url: 'https://ads.example/a.m3u8' },
      ],
      'adBreaks.1.offset',
    ],
    [
      'two at one point',
      [
        { offset: 8000, duration: 1000, url: 'https://ads.example/a.m3u8' },
        { offset: 8000, duration: 1000, url: 'https://ads.example/b.m3u8' },
      ],
      'adBreaks.1.offset',
    ],
    [
      'a negative offset',
      [{ offset: -1, duration: 1000, url: 'https://ads.example/a.m3u8' }],
      'adBreaks.0.offset',
    ],
    ['an ad of 0 ms', [{ offset: 0, duration: 0, url: 'https://ads.example/a.m3u8' }], 'adBreaks.0.duration'],
    [
      'an ad over 10 minutes',
      [{ offset: 0, duration: 600_001, url: 'https://ads.example/a.m3u8' }],
      'adBreaks.0.duration',
    ],
    [
      'a URL that is not http(s)',
      [{ offset: 0, duration: 1000, url: 'file:///etc/passwd' }],
      'adBreaks.0.url',
    ],
    [
      'a URL with credentials',
      [{ offset: 0, duration: 1000, url: 'https://u:p@ads.example/a.m3u8' }],
      'adBreaks.0.url',
    ],
    [
      'an unknown field',
      [{ offset: 0, duration: 1000, url: 'https://ads.example/a.m3u8', skip: true }],
      'adBreaks.0.skip',
    ],
    ['not a list', { offset: 0 }, 'adBreaks'],
  ];
  it.each(refusals)('refuses %s with 400 naming the field', async (_, adBreaks, field) => {
    const id = await channel();
    const res = await api(`/channels/${id}/schedule`, vodEntry(adBreaks));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field });
  });

  it('refuses a break that does not start inside the entry (400 naming its offset)', async () => {
    const id = await channel();
    const res = await api(
      `/channels/${id}/schedule`,
      vodEntry([{ offset: 20_000, duration: 1000, url: adUrl }]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'adBreaks.0.offset' });
  });

  it('refuses ad breaks on a LIVE entry (400 naming adBreaks)', async () => {
    const id = await channel();
    const s = start();
    const res = await api(`/channels/${id}/schedule`, {
      title: 'Match',
      type: 'LIVE',
      url: 'https://live.example/match/master.m3u8',
      start: s,
      end: new Date(Date.parse(s) + 60_000).toISOString(),
      adBreaks: [{ offset: 0, duration: 1000, url: adUrl }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'adBreaks' });
  });

  it('refuses an ad that does not answer as HLS (400 naming its url), and stores nothing', async () => {
    const id = await channel();
    const missing = `${origin.url}/no-such-ad/master.m3u8`;
    const res = await api(
      `/channels/${id}/schedule`,
      vodEntry([
        { offset: 0, duration: 1000, url: adUrl },
        { offset: 6000, duration: 1000, url: missing },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'adBreaks.1.url' });
    expect(String((res.body as { message: string }).message)).toContain('not_found');
  });

  it('refuses an ad on a private address when private URLs are not allowed, without fetching it', async () => {
    const id = await channel();
    const before = origin.requests().length;
    process.env.ALLOW_PRIVATE_URLS = 'false';
    try {
      const res = await api(
        `/channels/${id}/schedule`,
        vodEntry([{ offset: 0, duration: 1000, url: adUrl }]),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'adBreaks.0.url' });
      expect(String((res.body as { message: string }).message)).toContain('unavailable');
    } finally {
      process.env.ALLOW_PRIVATE_URLS = 'true';
    }
    expect(origin.requests().slice(before)).toEqual([]);
  });
});
