/**
 * The auto-scheduler end to end: a local origin serving an Atom feed and HLS VOD playlists, the
 * scheduler writing to DynamoDB Local, and the schedule read back through the HTTP API.
 * The scheduler's clock is injected, so a test can place "now" anywhere (e.g. just before midnight).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoScheduleStores, schedulerDepsFromEnv } from '../../functions/schedule/deps';
import { handler } from '../../functions/schedule/handler';
import type { ScheduleCursor, ScheduleEntry } from '../../functions/schedule/model';
import { planSchedule } from '../../functions/schedule/planning/plan-schedule';
import { runFeed, type SchedulerDeps } from '../../functions/schedule/scheduler/scheduler';
import { startScheduler } from '../../functions/schedule/scheduler/start-scheduler';
import { cachedDurationResolver, createDurationCache } from '../../functions/schedule/scheduler/vod-duration';
import { type Gateway, startGateway } from '../../local/gateway';
import { ensureFixtures } from '../support/fixtures';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { startStaticServer } from '../support/static-server';
import {
  atomFeed,
  type FeedEntry,
  type FeedServer,
  masterPlaylist,
  mediaPlaylist,
  startFeedServer,
} from './support/feed-server';
import { http } from './support/http';

const MIN = 60_000;
const HOUR = 60 * MIN;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** One page big enough for any schedule these tests write. */
const ALL = { limit: 1000 };

let cloud: LocalCloud;
let gateway: Gateway;
let origin: FeedServer;
let tenant: string;
let n = 0;

beforeAll(async () => {
  // These tests drive each scheduler pass themselves (with their own clock): no fill on create.
  process.env.SCHEDULE_FILL_ON_CREATE_MS = '0';
  // The feeds live on this machine: the local switch lets the scheduler read them (docs/security.md).
  [cloud, origin] = await Promise.all([startTestCloud({ ALLOW_PRIVATE_URLS: 'true' }), startFeedServer()]);
  gateway = await startGateway('schedule', handler, 0);
  tenant = new URL(gateway.url).host;
});
afterAll(async () => {
  await Promise.all([gateway?.close(), origin?.close()]);
  await cloud?.stop();
});

const api = (path: string, options: Parameters<typeof http>[1] = {}) =>
  http(`${gateway.url}/api/v1${path}`, options);

interface Vod {
  title: string;
  /** EXTINF values of the first variant, as written. */
  segments: string[];
}

interface Setup {
  channelId: string;
  feedId: string;
  feedPath: string;
  entries: FeedEntry[];
  /** Serves a new version of the feed (with a new ETag). */
  publish(entries: FeedEntry[], etag?: string): void;
}

/** Serves the VODs and a feed listing them, and creates the channel and its auto-scheduler via the API. */
async function setup(vods: Vod[], options: { retentionHours?: number; etag?: string } = {}): Promise<Setup> {
  const k = ++n;
  const base = `/s${k}`;
  const entries = vods.map((vod, i) => {
    origin.put(`${base}/vod${i}/master.m3u8`, {
      body: masterPlaylist(['low/index.m3u8', 'high/index.m3u8']),
    });
    origin.put(`${base}/vod${i}/low/index.m3u8`, { body: mediaPlaylist(vod.segments) });
    origin.put(`${base}/vod${i}/high/index.m3u8`, { body: mediaPlaylist(['10']) });
    return { id: crypto.randomUUID(), title: vod.title, link: `${origin.url}${base}/vod${i}/master.m3u8` };
  });
  const feedPath = `${base}/feed.xml`;
  const publish = (list: FeedEntry[], etag?: string) =>
    origin.put(feedPath, { body: atomFeed(list), contentType: 'application/atom+xml', etag });
  publish(entries, options.etag);
  const channelId = `ch${k}`;
  const feedId = `feed${k}`;
  expect(
    (await api('/channels', { method: 'POST', body: { id: channelId, title: `Channel ${k}` } })).status,
  ).toBe(201);
  const config =
    options.retentionHours === undefined ? undefined : { scheduleRetention: options.retentionHours };
  const created = await api('/mrss', {
    method: 'POST',
    body: { id: feedId, url: `${origin.url}${feedPath}`, channelId, config },
  });
  expect(created.status).toBe(201);
  return { channelId, feedId, feedPath, entries, publish };
}

/** Scheduler dependencies with a settable clock and a fresh duration cache. */
function schedulerAt(startMs: number, horizonMs = HOUR) {
  const clock = { now: startMs };
  const base = schedulerDepsFromEnv();
  const deps: SchedulerDeps = {
    ...base,
    clock: () => clock.now,
    horizonMs,
    resolveDuration: cachedDurationResolver(createDurationCache(), {
      timeoutMs: 2000,
      maxBytes: 1024 * 1024,
    }),
  };
  return { clock, deps, run: (s: Setup) => runFeed({ tenant, id: s.feedId }, deps) };
}

async function schedule(channelId: string, query: string): Promise<ScheduleEntry[]> {
  const res = await api(`/channels/${channelId}/schedule?${query}`);
  expect(res.status).toBe(200);
  return res.body as ScheduleEntry[];
}

const around = (fromMs: number, toMs: number) =>
  `start=${new Date(fromMs).toISOString()}&end=${new Date(toMs).toISOString()}`;

function expectConsecutive(entries: ScheduleEntry[]) {
  for (let i = 1; i < entries.length; i++) expect(entries[i]!.start_time).toBe(entries[i - 1]!.end_time);
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
}

const FIVE_MIN_VOD: Vod = { title: 'A', segments: Array(150).fill('2.002') }; // 300.300 s
const FOUR_MIN_VOD: Vod = { title: 'B', segments: [...Array(60).fill('4.004'), '0.5'] }; // 240.740 s

describe('auto-scheduler', () => {
  // First: a pass goes over every feed in the table, and this one is cheapest while there are few.
  it('runs on a timer until stopped', async () => {
    const s = await setup([FIVE_MIN_VOD]);
    const { deps } = schedulerAt(Date.UTC(2024, 4, 13, 10));
    const handle = startScheduler({ intervalMs: 100, deps });
    try {
      await expect
        .poll(() => origin.requestsTo(s.feedPath).length, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
    } finally {
      await handle.stop();
    }
    const entries = await schedule(s.channelId, 'date=2024-05-13');
    expect(entries.length).toBeGreaterThan(0);
    expectConsecutive(entries);
  });

  it('fills the schedule to the horizon with consecutive entries timed by the EXTINF sums of the VODs', async () => {
    const s = await setup([FIVE_MIN_VOD, FOUR_MIN_VOD]);
    const t0 = Date.UTC(2024, 4, 1, 10, 0, 0, 400);
    const { run } = schedulerAt(t0);
    expect(await run(s)).toMatchObject({ outcome: 'scheduled', read: 'fetched' });

    const entries = await schedule(s.channelId, around(t0 - HOUR, t0 + 3 * HOUR));
    expect(entries[0]!.start_time).toBe(Date.UTC(2024, 4, 1, 10, 0, 0));
    expectConsecutive(entries);
    expect(entries.at(-1)!.end_time).toBeGreaterThanOrEqual(t0 + HOUR);
    expect(entries.at(-2)!.end_time).toBeLessThan(t0 + HOUR);
    expect(entries.map((e) => e.title).slice(0, 4)).toEqual(['A', 'B', 'A', 'B']);
    expect(entries.slice(0, 2).map((e) => e.duration)).toEqual([300.3, 240.74]);
    for (const e of entries) {
      expect(e).toEqual({
        id: expect.stringMatching(UUID),
        channelId: s.channelId,
        title: e.title,
        url: s.entries[e.title === 'A' ? 0 : 1]!.link,
        start_time: e.start_time,
        end_time: e.end_time,
        start: new Date(e.start_time).toISOString(),
        end: new Date(e.end_time).toISOString(),
        duration: (e.end_time - e.start_time) / 1000,
        type: 'VOD',
      });
    }
  });

  it('measures real ffmpeg-made VODs by their playlists', async () => {
    const fixtures = await ensureFixtures();
    const media = await startStaticServer(fixtures.root);
    try {
      const s = await setup([]);
      s.publish([
        { id: crypto.randomUUID(), title: 'vod-a', link: `${media.url}/${fixtures.vodA.path}` },
        { id: crypto.randomUUID(), title: 'vod-b', link: `${media.url}/${fixtures.vodB.path}` },
      ]);
      const t0 = Date.UTC(2024, 4, 1, 6);
      await schedulerAt(t0, 10 * MIN).run(s);
      const entries = await schedule(s.channelId, around(t0, t0 + HOUR));
      expect(entries.slice(0, 2).map((e) => [e.title, e.duration])).toEqual([
        ['vod-a', fixtures.vodA.recipe.durationSec],
        ['vod-b', fixtures.vodB.recipe.durationSec],
      ]);
    } finally {
      await media.close();
    }
  });

  it('continues after the last scheduled entry on the next run', async () => {
    const s = await setup([FIVE_MIN_VOD, FOUR_MIN_VOD, { title: 'C', segments: ['60'] }]);
    const t0 = Date.UTC(2024, 4, 2, 10);
    const { clock, run } = schedulerAt(t0);
    await run(s);
    const before = await schedule(s.channelId, around(t0 - HOUR, t0 + 3 * HOUR));
    clock.now = t0 + 30 * MIN;
    expect(await run(s)).toMatchObject({ outcome: 'scheduled' });
    const after = await schedule(s.channelId, around(t0 - HOUR, t0 + 3 * HOUR));

    expect(after.slice(0, before.length)).toEqual(before);
    expectConsecutive(after);
    const order = ['A', 'B', 'C'];
    const lastBefore = order.indexOf(before.at(-1)!.title);
    expect(after[before.length]!.title).toBe(order[(lastBefore + 1) % 3]);
    expect(after.at(-1)!.end_time).toBeGreaterThanOrEqual(clock.now + HOUR);
  });

  it('reads the feed conditionally: a 304 reuses the stored entries without fetching any playlist', async () => {
    const s = await setup([FIVE_MIN_VOD, FOUR_MIN_VOD], { etag: '"v1"' });
    const t0 = Date.UTC(2024, 4, 3, 10);
    const { clock, run } = schedulerAt(t0);
    await run(s);
    const playlistsBefore = origin.requests.filter((r) => r.path.endsWith('.m3u8')).length;

    clock.now = t0 + 20 * MIN;
    expect(await run(s)).toMatchObject({ outcome: 'scheduled', read: 'not-modified' });
    expect(origin.requestsTo(s.feedPath).at(-1)).toMatchObject({
      status: 304,
      headers: { 'if-none-match': '"v1"' },
    });
    expect(origin.requests.filter((r) => r.path.endsWith('.m3u8')).length).toBe(playlistsBefore);
    const entries = await schedule(s.channelId, around(t0 - HOUR, t0 + 3 * HOUR));
    expectConsecutive(entries);
    expect(entries.at(-1)!.end_time).toBeGreaterThanOrEqual(clock.now + HOUR);
  });

  it('schedules the new entries of a changed feed', async () => {
    const s = await setup([FIVE_MIN_VOD], { etag: '"v1"' });
    const t0 = Date.UTC(2024, 4, 4, 10);
    const { clock, run } = schedulerAt(t0);
    await run(s);
    s.publish([...s.entries, { id: crypto.randomUUID(), title: 'Fresh', link: s.entries[0]!.link }], '"v2"');
    clock.now = t0 + 30 * MIN;
    expect(await run(s)).toMatchObject({ read: 'fetched' });
    const titles = (await schedule(s.channelId, around(t0, t0 + 3 * HOUR))).map((e) => e.title);
    expect(titles).toContain('Fresh');
  });

  it('skips feed entries with a missing field or a VOD that does not load, and schedules the rest', async () => {
    const s = await setup([FIVE_MIN_VOD]);
    origin.put(s.feedPath, {
      body: atomFeed(s.entries).replace(
        '</feed>',
        '<entry><id>no-title</id><link>http://x/y.m3u8</link></entry>' +
          `<entry><title>Gone</title><id>gone</id><link>${origin.url}/nowhere/master.m3u8</link></entry></feed>`,
      ),
    });
    const t0 = Date.UTC(2024, 4, 5, 10);
    await schedulerAt(t0).run(s);
    const entries = await schedule(s.channelId, around(t0 - HOUR, t0 + 2 * HOUR));
    expect(entries.length).toBeGreaterThan(0);
    expect(new Set(entries.map((e) => e.title))).toEqual(new Set(['A']));
  });

  it('restarts a schedule that ended in the past at now, floored to the second', async () => {
    const s = await setup([FIVE_MIN_VOD]);
    const t0 = Date.UTC(2024, 4, 6, 10);
    const { clock, run } = schedulerAt(t0);
    await run(s);
    clock.now = t0 + 5 * HOUR + 1234;
    await run(s);
    const later = await schedule(s.channelId, around(t0 + 4 * HOUR, t0 + 8 * HOUR));
    expect(later[0]!.start_time).toBe(t0 + 5 * HOUR + 1000);
    expectConsecutive(later);
  });

  it('deletes the entries that ended longer ago than the retention (hours)', async () => {
    const s = await setup([FIVE_MIN_VOD], { retentionHours: 1 });
    const t0 = Date.UTC(2024, 4, 7, 10);
    const { clock, run } = schedulerAt(t0, 3 * HOUR);
    await run(s);
    const all = await schedule(s.channelId, around(t0 - HOUR, t0 + 5 * HOUR));
    clock.now = t0 + 2.5 * HOUR;
    const result = await run(s);

    const cutoff = clock.now - HOUR;
    const kept = await schedule(s.channelId, around(t0 - HOUR, t0 + 6 * HOUR));
    const expired = all.filter((e) => e.end_time < cutoff);
    expect(expired.length).toBeGreaterThan(0);
    expect(result.expired).toBe(expired.length);
    expect(kept[0]).toEqual(all.find((e) => e.end_time >= cutoff));
    expectConsecutive(kept);
  });

  it('never duplicates or overlaps entries when several runs race', async () => {
    const s = await setup([{ title: 'Short', segments: Array(10).fill('2.002') }]); // 20.020 s: 180 entries per hour
    const t0 = Date.UTC(2024, 4, 8, 10);
    // Clocks a second apart: each run would plan different entry boundaries if it could write.
    const runs = [0, 1, 2, 3].map((i) => schedulerAt(t0 + i * 1000));
    const results = await Promise.all(runs.map((r) => r.run(s)));
    expect(
      results.every((r) => r.outcome === 'scheduled' || r.outcome === 'conflict' || r.outcome === 'full'),
    ).toBe(true);

    const entries = await schedule(s.channelId, around(t0 - HOUR, t0 + 3 * HOUR));
    expectConsecutive(entries);
    expect([t0, t0 + 1000, t0 + 2000, t0 + 3000]).toContain(entries[0]!.start_time);
    expect(entries.at(-1)!.end_time).toBeGreaterThanOrEqual(t0 + HOUR);
  });

  it('refuses a write of entries planned from a cursor that has moved', async () => {
    const s = await setup([FIVE_MIN_VOD]);
    const { entries } = dynamoScheduleStores();
    const t0 = Date.UTC(2024, 4, 9, 10);
    const plan = (durationMs: number, cursor?: ScheduleCursor) =>
      planSchedule({
        channelId: s.channelId,
        cursor,
        items: [{ id: 'x', title: 'X', url: s.entries[0]!.link, durationMs }],
        nowMs: t0,
        horizonMs: HOUR,
        newId: () => crypto.randomUUID(),
      });
    const first = plan(300_300);
    expect(await entries.append(tenant, s.channelId, undefined, first.planned)).toBe('appended');
    // Planned from the empty schedule, with other boundaries: it would overlap the first plan.
    expect(await entries.append(tenant, s.channelId, undefined, plan(240_740).planned)).toBe('conflict');
    // Planned from a stale cursor.
    const stale = first.planned[0]!.cursor;
    expect(await entries.append(tenant, s.channelId, stale.endTime, plan(240_740, stale).planned)).toBe(
      'conflict',
    );
    const stored = (await entries.listOverlapping(tenant, s.channelId, 0, Number.MAX_SAFE_INTEGER, ALL))
      .items;
    expect(stored.map((e) => e.id)).toEqual(first.planned.map((p) => p.entry.id));
    expect((await entries.readCursor(tenant, s.channelId)).cursor).toEqual(first.cursor);
  });

  it('lists an entry that spans midnight in both UTC days, each day ordered by start', async () => {
    const s = await setup([{ title: 'Seven', segments: Array(105).fill('4') }]); // 7 minutes
    const t0 = Date.UTC(2024, 4, 10, 23, 50);
    await schedulerAt(t0).run(s);
    const day1 = await schedule(s.channelId, 'date=2024-05-10');
    const day2 = await schedule(s.channelId, 'date=2024-05-11');
    const midnight = Date.UTC(2024, 4, 11);
    const spanning = day1.at(-1)!;
    expect(spanning.start_time).toBeLessThan(midnight);
    expect(spanning.end_time).toBeGreaterThan(midnight);
    expect(day2[0]).toEqual(spanning);
    expect(day1.every((e) => e.start_time < midnight)).toBe(true);
    expect(day2.every((e) => e.end_time > midnight)).toBe(true);
    expectConsecutive(day1);
    expectConsecutive(day2);
  });

  it('deletes a channel’s auto-scheduler and schedule with the channel', async () => {
    const s = await setup([FIVE_MIN_VOD]);
    const t0 = Date.UTC(2024, 4, 12, 10);
    await schedulerAt(t0).run(s);
    const { entries } = dynamoScheduleStores();
    expect(
      (await entries.listOverlapping(tenant, s.channelId, 0, Number.MAX_SAFE_INTEGER, ALL)).items.length,
    ).toBeGreaterThan(0);

    expect((await api(`/channels/${s.channelId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/mrss/${s.feedId}`)).status).toBe(404);
    expect(
      (await entries.listOverlapping(tenant, s.channelId, 0, Number.MAX_SAFE_INTEGER, ALL)).items,
    ).toEqual([]);
    expect(await schedulerAt(t0 + HOUR).run(s)).toMatchObject({ outcome: 'gone', added: 0 });
  });
});
