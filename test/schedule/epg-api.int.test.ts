/**
 * `GET /api/v1/channels/{id}/epg.xml` and `epg.json` over HTTP on DynamoDB Local: the entries of the
 * range asked for, as the scheduler stores them, in both formats.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dynamoScheduleStores } from '../../functions/schedule/deps';
import { handler } from '../../functions/schedule/handler';
import type { ScheduleEntry } from '../../functions/schedule/model';
import { type Gateway, startGateway } from '../../local/gateway';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';

let cloud: LocalCloud;
let gateway: Gateway;
let tenant: string;

const HOUR = 3_600_000;
const t0 = Date.parse('2026-05-01T10:00:00Z');

function entry(i: number, title: string): ScheduleEntry {
  const start_time = t0 + i * HOUR;
  const end_time = start_time + HOUR;
  return {
    id: `e${i}`,
    channelId: 'epg',
    title,
    start_time,
    end_time,
    start: new Date(start_time).toISOString(),
    end: new Date(end_time).toISOString(),
    url: 'https://vod.example.com/a/master.m3u8',
    duration: 3600,
    type: 'VOD',
  };
}

beforeAll(async () => {
  cloud = await startTestCloud();
  gateway = await startGateway('schedule', handler, 0);
  tenant = new URL(gateway.url).host;
  const created = await fetch(`${gateway.url}/api/v1/channels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'epg', title: 'EPG & Co' }),
  });
  expect(created.status).toBe(201);
  const entries = [entry(0, 'Morning <news>'), entry(1, 'Noon'), entry(2, 'Afternoon')];
  const planned = entries.map((e, i) => ({
    entry: e,
    cursor: { endTime: e.end_time, lastItemId: e.id, lastItemIndex: i },
  }));
  expect(await dynamoScheduleStores().entries.append(tenant, 'epg', undefined, planned)).toBe('appended');
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
});

const range = '?start=2026-05-01T12:30:00%2B02:00&end=2026-05-01T12:30:00Z';

it('answers the programmes that overlap the range as JSON, start and stop in UTC', async () => {
  const res = await fetch(`${gateway.url}/api/v1/channels/epg/epg.json${range}`);
  expect(res.status).toBe(200);
  const epg = (await res.json()) as { range: unknown; programmes: { title: string; start: string }[] };
  expect(epg.range).toEqual({ start: '2026-05-01T10:30:00.000Z', end: '2026-05-01T12:30:00.000Z' });
  expect(epg.programmes.map((p) => [p.title, p.start])).toEqual([
    ['Morning <news>', '2026-05-01T10:00:00.000Z'],
    ['Noon', '2026-05-01T11:00:00.000Z'],
    ['Afternoon', '2026-05-01T12:00:00.000Z'],
  ]);
});

it('answers the same programmes as XMLTV, escaped', async () => {
  const res = await fetch(`${gateway.url}/api/v1/channels/epg/epg.xml${range}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  const xml = await res.text();
  expect(xml).toContain('<display-name>EPG &amp; Co</display-name>');
  expect(xml).toContain('<programme start="20260501100000 +0000" stop="20260501110000 +0000" channel="epg">');
  expect(xml).toContain('<title>Morning &lt;news&gt;</title>');
  expect(xml.match(/<programme /g)).toHaveLength(3);
});

it('answers 404 for a channel the tenant does not have, and 400 for a bad range', async () => {
  expect((await fetch(`${gateway.url}/api/v1/channels/nope/epg.xml`)).status).toBe(404);
  const bad = await fetch(`${gateway.url}/api/v1/channels/epg/epg.json?start=yesterday&end=today`);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ field: 'start' });
});
