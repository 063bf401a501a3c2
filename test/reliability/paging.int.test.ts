/**
 * Every list of the channel and schedule APIs comes in pages: more items than a page holds are walked
 * to the end through `Link: <...>; rel="next"`, with none lost and none repeated, on DynamoDB Local
 * through the real handlers. The engine's schedule plug-in follows the pages, and no page of a schedule
 * can outgrow a Lambda response, whatever its entries hold.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleApiClient } from '../../engine-container/host/schedule/schedule-client';
import { dynamoScheduleStores } from '../../functions/schedule/deps';
import type { FeedItem } from '../../functions/schedule/model';
import { planSchedule } from '../../functions/schedule/planning/plan-schedule';
import { type Apis, startApis } from './support/apis';
import { type Answer, send } from './support/raw-http';

/** A Lambda function's response payload limit. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

let apis: Apis;
let tenant: string;

beforeAll(async () => {
  apis = await startApis();
  tenant = new URL(apis.schedule).host;
});

afterAll(async () => {
  await apis?.stop();
});

interface Walk {
  items: { id: string }[];
  pages: Answer[];
}

/** Every page of a list, from `path` on, following rel="next"; each page's two cursors must agree. */
async function walk(base: string, path: string, headers: Record<string, string> = {}): Promise<Walk> {
  const walked: Walk = { items: [], pages: [] };
  for (let next: string | undefined = path; next; ) {
    const page = await send(base, { path: next, headers });
    expect(page.status, page.text.slice(0, 200)).toBe(200);
    walked.pages.push(page);
    walked.items.push(...(page.json as { id: string }[]));
    const link = /^<([^>]+)>; rel="next"$/.exec(String(page.headers.link ?? ''));
    next = link?.[1];
    const cursor = next && new URL(next, base).searchParams.get('cursor');
    expect(page.headers['x-next-cursor']).toBe(cursor || undefined);
    expect(walked.pages.length).toBeLessThan(200);
  }
  return walked;
}

const ids = (w: Walk) => w.items.map((i) => i.id);
const range = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => name(i + 1));

async function created(base: string, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await send(base, { method: 'POST', path, body, headers });
  expect(res.status, res.text).toBe(201);
}

describe('the channel API', () => {
  it('walks all 25 of a tenant’s channels in pages of 7, each once, ordered by name', async () => {
    const auth = await apis.operator('pager', 30);
    const names = range(25, (i) => `pager-${String(i).padStart(2, '0')}`);
    for (const name of names)
      await created(
        apis.channel,
        '/channel',
        { name, type: 'Loop', url: 'https://vod.example.com/m.m3u8' },
        auth,
      );

    const walked = await walk(apis.channel, '/channel?limit=7', auth);
    expect(walked.pages.map((p) => (p.json as unknown[]).length)).toEqual([7, 7, 7, 4]);
    expect(ids(walked)).toEqual(names.map((name) => `pager-${name}`));
  });
});

describe('the schedule API', () => {
  const other = { host: 'pages.example:8090' };

  it('walks all 23 channels of a tenant in pages of 5, each once, ordered by id', async () => {
    const channelIds = range(23, (i) => `ch-${String(i).padStart(2, '0')}`);
    for (const id of channelIds) await created(apis.schedule, '/api/v1/channels', { id, title: id }, other);

    const walked = await walk(apis.schedule, '/api/v1/channels?limit=5', other);
    expect(walked.pages).toHaveLength(5);
    expect(ids(walked)).toEqual(channelIds);
  });

  it('walks all 12 auto-schedulers of a tenant in pages of 5, each once, ordered by id', async () => {
    const feedIds = range(12, (i) => `feed-${String(i).padStart(2, '0')}`);
    for (const id of feedIds) {
      await created(apis.schedule, '/api/v1/channels', { id: `for-${id}`, title: id }, other);
      const feed = { id, url: `https://feeds.example.com/${id}.atom`, channelId: `for-${id}` };
      await created(apis.schedule, '/api/v1/mrss', feed, other);
    }

    const walked = await walk(apis.schedule, '/api/v1/mrss?limit=5', other);
    expect(walked.pages.map((p) => (p.json as unknown[]).length)).toEqual([5, 5, 2]);
    expect(ids(walked)).toEqual(feedIds);
  });
});

/** A channel of the API's own tenant with a schedule of `entries` consecutive one-minute entries from t0. */
async function scheduledChannel(id: string, t0: number, entries: number, title = 'Entry') {
  await created(apis.schedule, '/api/v1/channels', { id, title: id });
  const items: FeedItem[] = [
    { id: 'a', title, url: 'https://cdn.example.com/a/master.m3u8', durationMs: 60_000 },
  ];
  const plan = planSchedule({
    channelId: id,
    cursor: undefined,
    items,
    nowMs: t0,
    horizonMs: entries * 60_000,
    newId: randomUUID,
  });
  expect(plan.planned).toHaveLength(entries);
  expect(await dynamoScheduleStores().entries.append(tenant, id, undefined, plan.planned)).toBe('appended');
  return plan.planned.map((p) => p.entry);
}

describe('a schedule', () => {
  const t0 = Date.UTC(2024, 5, 1);
  let entries: { id: string; start_time: number; end_time: number }[];

  beforeAll(async () => {
    entries = await scheduledChannel('long-day', t0, 1200);
  });

  it('walks a 1,200-entry day in the default pages of 500, each entry once, in order', async () => {
    const walked = await walk(apis.schedule, '/api/v1/channels/long-day/schedule?date=2024-06-01');
    expect(walked.pages.map((p) => (p.json as unknown[]).length)).toEqual([500, 500, 200]);
    expect(ids(walked)).toEqual(entries.map((e) => e.id));
  });

  it('walks only the entries overlapping a range, in pages of 50', async () => {
    const [from, to] = [t0 + 10 * 3_600_000 + 30_000, t0 + 12 * 3_600_000];
    const query = `start=${new Date(from).toISOString()}&end=${new Date(to).toISOString()}&limit=50`;
    const walked = await walk(apis.schedule, `/api/v1/channels/long-day/schedule?${query}`);
    const expected = entries.filter((e) => e.end_time > from && e.start_time < to);
    expect(expected).toHaveLength(120);
    expect(ids(walked)).toEqual(expected.map((e) => e.id));
  });

  it('reaches the engine’s schedule plug-in whole, across pages', async () => {
    const client = scheduleApiClient({ apiUrl: `${apis.schedule}/api/v1` });
    const got = await client.schedule('long-day', t0, t0 + 86_400_000);
    expect(got.map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it('never answers a page larger than a Lambda response, however large its entries', async () => {
    const big = await scheduledChannel('big-entries', t0, 200, 'x'.repeat(30_000));
    const walked = await walk(
      apis.schedule,
      '/api/v1/channels/big-entries/schedule?date=2024-06-01&limit=1000',
    );
    expect(walked.pages.length).toBeGreaterThan(1);
    for (const page of walked.pages) expect(Buffer.byteLength(page.text)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    expect(ids(walked)).toEqual(big.map((e) => e.id));
  });
});
