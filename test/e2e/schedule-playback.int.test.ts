/**
 * The schedule service's quick start, end to end on the local system: create a channel, bind an Atom
 * feed of real HLS VODs, read today's schedule (consecutive, exact to the millisecond), and watch the
 * engine play it: at any moment its playlist carries the entry scheduled for that moment.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { playbackChannelId } from '../../functions/schedule/playback-id';
import { type RunningSystem, startSystem } from '../../local/system';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';

interface Entry {
  id: string;
  title: string;
  url: string;
  start_time: number;
  end_time: number;
  start: string;
  end: string;
  duration: number;
  type: string;
}

let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;
let feedServer: Server;
let feedUrl: string;

beforeAll(async () => {
  fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  const entries = [fixtures.vodA, fixtures.vodB]
    .map(
      (vod) =>
        `<entry><title>${vod.name}</title><id>${randomUUID()}</id><link>${origin.url}/${vod.path}</link></entry>`,
    )
    .join('');
  const feed = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:onair:e2e</id><title>e2e</title><updated>${new Date().toISOString()}</updated>${entries}</feed>`;
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/atom+xml' });
    res.end(feed);
  });
  await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    services: ['schedule', 'engine'],
    env: { LOG_LEVEL: 'silent', ENGINE_CHANNEL_REFRESH_MS: '500', SCHEDULE_HORIZON_HOURS: '1' },
  });
});

afterAll(async () => {
  await system?.stop();
  await origin?.close();
  await new Promise((r) => feedServer?.close(r));
});

const fetchText = (url: string) => async () => (await fetch(url)).text();

const api = (path: string, body?: unknown) =>
  fetch(`${system.urls.schedule}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe('the schedule quick start', () => {
  let schedule: Entry[];

  it('creates a channel and an auto-scheduler, and today holds a consecutive, exact schedule at once', async () => {
    expect((await api('/channels', { id: 'tv', title: 'TV' })).status).toBe(201);
    const mrss = await api('/mrss', {
      id: 'tv-feed',
      url: feedUrl,
      channelId: 'tv',
      config: { scheduleRetention: 2 },
    });
    expect(mrss.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    schedule = (await (await api(`/channels/tv/schedule?date=${today}`)).json()) as Entry[];
    expect(schedule.length).toBeGreaterThan(2);
    expect(schedule[0]!.start_time).toBeLessThanOrEqual(Date.now());
    for (const [i, e] of schedule.entries()) {
      expect(e.duration).toBe((e.end_time - e.start_time) / 1000);
      expect(e.duration).toBe(e.title === 'vod-a' ? 20 : 24);
      expect(e.type).toBe('VOD');
      if (i > 0) expect(e.start_time).toBe(schedule[i - 1]!.end_time);
    }
    expect(schedule.map((e) => e.title).slice(0, 4)).toEqual(
      schedule[0]!.title === 'vod-a'
        ? ['vod-a', 'vod-b', 'vod-a', 'vod-b']
        : ['vod-b', 'vod-a', 'vod-b', 'vod-a'],
    );
  });

  it('is played by the engine: every segment in its playlist belongs to the entry scheduled at its time', async () => {
    // The engine channel of a schedule channel is `<tenantKey>~<id>` (docs/schedule-api.md "Playback URLs").
    const tv = playbackChannelId(new URL(system.urls.schedule!).host, 'tv');
    const media0 = `${system.urls.engine}/channels/${tv}/0.m3u8`;
    await waitOnAir(`${system.urls.engine}/channels/${tv}/master.m3u8`);
    // The channel is on air once its first entries exist (before, 503 channel_starting: docs/media.md
    // "The channel's ladder"); its first window reaches back before them, into the slate.
    await waitFor(fetchText(media0), (body) => /\/vod-[ab]\//.test(body), {
      timeoutMs: 90_000,
      what: 'the schedule on air',
    });
    let checked = 0;
    let dateranges = 0;
    // Every playlist the engine serves over its next updates (one per segment boundary), each once.
    let media = '';
    for (let update = 0; update < 10; update++) {
      const previous = media;
      media = await waitFor(fetchText(media0), (body) => body !== previous, { what: 'the next playlist' });
      let pdt = 0;
      for (const line of media.split('\n')) {
        if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pdt = Date.parse(line.slice(25));
        if (!line.startsWith('http') || !pdt) continue;
        const entry = schedule.find((e) => e.start_time <= pdt && pdt < e.end_time);
        // Before the first entry (the engine fills its first window back in time) a slate may play.
        if (!entry || line.includes('/slate/')) continue;
        expect(line, `segment at ${new Date(pdt).toISOString()}`).toContain(`/${entry.title}/`);
        checked++;
      }
      if (/#EXT-X-DATERANGE:[^\n]*X-SCHEDULE-ENTRY-ID/.test(media)) dateranges++;
    }
    expect(checked).toBeGreaterThan(50);
    // Each entry's first segment carries an EXT-X-DATERANGE naming the schedule entry.
    expect(dateranges).toBeGreaterThan(0);
  }, 150_000);
});
