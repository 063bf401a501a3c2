/**
 * The engine plugin against the real schedule API (local gateway + DynamoDB Local): the channel
 * manager lists the service's channels, the asset manager follows a channel's schedule by the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger';
import { createSchedulePlugin, schedulePluginFromEnv } from '../../engine-container/host/schedule/index';
import { Engine, type VodRequest, type VodResponse } from '../../engine-container/src/index';
import { dynamoScheduleStores } from '../../functions/schedule/deps';
import { handler } from '../../functions/schedule/handler';
import type { FeedItem, ScheduleCursor } from '../../functions/schedule/model';
import { planSchedule } from '../../functions/schedule/planning/plan-schedule';
import { playbackChannelId } from '../../functions/schedule/playback-id';
import { type Gateway, startGateway } from '../../local/gateway';
import { http } from '../schedule/support/http';
import { ensureFixtures } from '../support/fixtures';
import { parseAttributeList, parseMediaPlaylist } from '../support/hls-playlist';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { startStaticServer } from '../support/static-server';

/** One AAC frame of the fixtures' 48 kHz audio, rounded up. */
const AAC_FRAME_MS = Math.ceil((1024 / 48_000) * 1000);

let cloud: LocalCloud;
let gateway: Gateway;
let tenant: string;
let apiUrl: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  gateway = await startGateway('schedule', handler, 0);
  tenant = new URL(gateway.url).host;
  apiUrl = `${gateway.url}/api/v1`;
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
});

const items: FeedItem[] = [
  { id: 'a', title: 'Alpha', url: 'http://cdn/a/master.m3u8', durationMs: 300_300 },
  { id: 'b', title: 'Bravo', url: 'http://cdn/b/master.m3u8', durationMs: 240_740 },
];

/** Creates a channel through the API and writes a schedule for it: [startMs, +horizon). */
async function scheduledChannel(id: string, startMs: number, horizonMs: number, cursor?: ScheduleCursor) {
  if (!cursor)
    expect(
      (await http(`${apiUrl}/channels`, { method: 'POST', body: { id, title: `Title ${id}` } })).status,
    ).toBe(201);
  const plan = planSchedule({
    channelId: id,
    cursor,
    items,
    nowMs: startMs,
    horizonMs,
    newId: () => crypto.randomUUID(),
  });
  expect(await dynamoScheduleStores().entries.append(tenant, id, cursor?.endTime, plan.planned)).toBe(
    'appended',
  );
  return plan;
}

describe('schedule engine plugin', () => {
  it('lists the schedule service’s channels as engine channels', async () => {
    await scheduledChannel('plugin-list', Date.UTC(2024, 5, 1), 600_000);
    const { channelManager } = createSchedulePlugin({ apiUrl, log: createLogger() });
    expect(await channelManager.getChannels()).toContainEqual({
      id: playbackChannelId(tenant, 'plugin-list'),
      name: 'Title plugin-list',
      // Unset on the channel: room for whatever its entries will hold (docs/media.md).
      targetDuration: 10,
    });
  });

  it('puts every tenant’s channels on air in local mode: one made at 127.0.0.1 as well as at localhost', async () => {
    const port = new URL(gateway.url).port;
    const t0 = Date.UTC(2024, 5, 3, 8);
    const byHost: Record<string, string> = {};
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const res = await http(`${apiUrl}/channels`, {
        method: 'POST',
        host,
        body: { id: 'local-both', title: host },
      });
      expect(res.status).toBe(201);
      const plan = planSchedule({
        channelId: 'local-both',
        cursor: undefined,
        items,
        nowMs: t0,
        horizonMs: 600_000,
        newId: () => crypto.randomUUID(),
      });
      await dynamoScheduleStores().entries.append(host, 'local-both', undefined, plan.planned);
      byHost[host] = plan.planned[0]!.entry.id;
    }
    // The plug-in reads the API at one URL (its Host is neither of the two above) and sees both.
    const clock = { now: t0 + 1000 };
    const { channelManager, assetManager } = createSchedulePlugin({
      apiUrl,
      log: createLogger(),
      clock: () => clock.now,
    });
    const ids = (await channelManager.getChannels()).map((c) => c.id);
    for (const [host, entryId] of Object.entries(byHost)) {
      const id = playbackChannelId(host, 'local-both');
      expect(ids).toContain(id);
      expect(await assetManager.getNextVod({ sessionId: id, playlistId: id })).toMatchObject({ id: entryId });
    }
  });

  it('joins the entry on air at the right offset, then plays the following entries back to back', async () => {
    const t0 = Date.UTC(2024, 5, 2, 8);
    const plan = await scheduledChannel('plugin-play', t0, 3_600_000);
    const clock = { now: t0 + 100_000 };
    const { assetManager } = createSchedulePlugin({ apiUrl, log: createLogger(), clock: () => clock.now });
    const req = { sessionId: 'plugin-play', playlistId: 'plugin-play' };

    const first = await assetManager.getNextVod(req);
    const [e1, e2, e3] = plan.planned.map((p) => p.entry);
    expect(first).toMatchObject({ id: e1!.id, uri: e1!.url, startOffset: 100_000, desiredDuration: 200_300 });
    expect(first.timedMetadata).toMatchObject({ title: 'Alpha', 'schedule-entry-id': e1!.id });

    clock.now = e1!.end_time - 8000; // the engine asks a little before the item ends
    expect(await assetManager.getNextVod(req)).toMatchObject({
      id: e2!.id,
      startOffset: 0,
      desiredDuration: 240_740,
      unixTs: e2!.start_time,
    });
    clock.now = e2!.end_time - 8000;
    expect(await assetManager.getNextVod(req)).toMatchObject({
      id: e3!.id,
      startOffset: 0,
      unixTs: e3!.start_time,
    });
  });

  it('plays a gap until the next entry when the schedule has a hole', async () => {
    const t0 = Date.UTC(2024, 5, 3, 8);
    const first = await scheduledChannel('plugin-gap', t0, 60_000);
    const endsAt = first.cursor!.endTime;
    const second = await scheduledChannel('plugin-gap', endsAt + 30_000, 60_000, first.cursor);
    const clock = { now: endsAt - 5000 };
    const { assetManager } = createSchedulePlugin({ apiUrl, log: createLogger(), clock: () => clock.now });
    const req = { sessionId: 'plugin-gap', playlistId: 'plugin-gap' };

    expect(await assetManager.getNextVod(req)).toMatchObject({ id: first.planned[0]!.entry.id });
    const gap = await assetManager.getNextVod(req);
    expect(gap).toMatchObject({ type: 'gap', desiredDuration: second.planned[0]!.entry.start_time - endsAt });
    expect(await assetManager.getNextVod(req)).toMatchObject({
      id: second.planned[0]!.entry.id,
      startOffset: 0,
    });
  });

  it('starts from now again when the remembered position is no longer plausible', async () => {
    const t0 = Date.UTC(2024, 5, 4, 8);
    const plan = await scheduledChannel('plugin-restart', t0, 3_600_000);
    const clock = { now: t0 + 1000 };
    const { assetManager } = createSchedulePlugin({ apiUrl, log: createLogger(), clock: () => clock.now });
    const req = { sessionId: 'plugin-restart', playlistId: 'plugin-restart' };
    await assetManager.getNextVod(req);
    clock.now = t0 + 1_800_000; // half an hour later: the engine was restarted, or failed over
    const onAir = plan.planned
      .map((p) => p.entry)
      .find((e) => e.start_time <= clock.now && clock.now < e.end_time)!;
    expect(await assetManager.getNextVod(req)).toMatchObject({
      id: onAir.id,
      startOffset: clock.now - onAir.start_time,
    });
  });

  it('gives each channel the media settings it was made with, read from the service', async () => {
    const shape = {
      audioTracks: [
        { language: 'sv', name: 'Svenska', default: true },
        { language: 'en', name: 'English' },
      ],
      subtitleTracks: [{ language: 'sv', name: 'Svenska' }],
      closedCaptions: [{ lang: 'en', name: 'English', id: 'CC1', default: true, auto: true }],
      profile: [{ resolution: [1280, 720], bw: 3_000_000, codecs: 'avc1.64001f,mp4a.40.2', channels: '2' }],
      slate: 'https://cdn.example.com/slate/master.m3u8',
    };
    const made = await http(`${apiUrl}/channels`, {
      method: 'POST',
      body: { id: 'plugin-media', title: 'Media', ...shape },
    });
    expect(made.status).toBe(201);
    const { channelManager } = createSchedulePlugin({
      apiUrl,
      log: createLogger(),
      slate: 'https://plugin/slate',
    });
    const id = playbackChannelId(tenant, 'plugin-media');
    const channel = (await channelManager.getChannels()).find((c) => c.id === id);
    // Every field, the channel's own slate over the plug-in's.
    expect(channel).toEqual({ id, name: 'Media', targetDuration: 10, ...shape });
  });

  it("answers a channel's first VOD entry ahead as its upcoming content, and nothing before it has one", async () => {
    const t0 = Date.UTC(2024, 5, 5, 8);
    const id = 'plugin-ahead';
    expect((await http(`${apiUrl}/channels`, { method: 'POST', body: { id, title: 'Ahead' } })).status).toBe(
      201,
    );
    const { assetManager } = createSchedulePlugin({ apiUrl, log: createLogger(), clock: () => t0 });
    const req = { sessionId: id, playlistId: id, startMs: t0 };
    expect(await assetManager.upcomingContent(req)).toEqual({});

    // Entries made later, starting in 20 minutes: the first of them is what the channel will play.
    const plan = planSchedule({
      channelId: id,
      cursor: undefined,
      items,
      nowMs: t0 + 1_200_000,
      horizonMs: 600_000,
      newId: () => crypto.randomUUID(),
    });
    expect(await dynamoScheduleStores().entries.append(tenant, id, undefined, plan.planned)).toBe('appended');
    const first = plan.planned[0]!.entry;
    expect(await assetManager.upcomingContent(req)).toEqual({
      vod: { id: first.id, title: first.title, uri: first.url },
    });
  });

  it('is enabled by SCHEDULE_SERVICE_API_URL only', () => {
    expect(schedulePluginFromEnv({})).toBeUndefined();
    expect(schedulePluginFromEnv({ SCHEDULE_SERVICE_API_URL: apiUrl })).toBeDefined();
  });
});

describe('schedule engine plugin in the engine', () => {
  it('plays the entry on air joined mid-way, tagged with an EXT-X-DATERANGE naming the entry', async () => {
    const fixtures = await ensureFixtures();
    const media = await startStaticServer(fixtures.root);
    // A gateway of its own (another tenant, host:port); the engine plays every tenant's channels.
    const own = await startGateway('schedule-e2e', handler, 0);
    let engine: Engine | undefined;
    try {
      const ownApi = `${own.url}/api/v1`;
      expect(
        (await http(`${ownApi}/channels`, { method: 'POST', body: { id: 'e2e', title: 'E2E' } })).status,
      ).toBe(201);
      const vodA: FeedItem = {
        id: 'a',
        title: 'Vod A',
        url: `${media.url}/${fixtures.vodA.path}`,
        durationMs: 20_000,
      };
      // The schedule began before the engine's first item, which starts a live window (60 s) before
      // the engine does: the engine joins an entry mid-way, then plays the next ones (vodA repeated).
      const startMs = Date.now() - 75_000;
      const plan = planSchedule({
        channelId: 'e2e',
        cursor: undefined,
        items: [vodA],
        nowMs: startMs,
        horizonMs: 120_000,
        newId: () => crypto.randomUUID(),
      });
      await dynamoScheduleStores().entries.append(new URL(own.url).host, 'e2e', undefined, plan.planned);

      const plugin = createSchedulePlugin({ apiUrl: ownApi, log: createLogger() });
      const answers: VodResponse[] = [];
      // The plugin's asset manager, its answers recorded. It says its content may change at short
      // notice (contentChangedFrom), so the engine plans this channel only to its lead, as it does with
      // the plugin itself; without it the channel would plan 20-40 s ahead like a Loop channel.
      const assetManager = {
        getNextVod: async (req: VodRequest) => {
          const answer = await plugin.assetManager.getNextVod(req);
          answers.push(answer);
          return answer;
        },
        contentChangedFrom: (req: VodRequest) => plugin.assetManager.contentChangedFrom(req),
      };
      engine = new Engine(assetManager, {
        channelManager: plugin.channelManager,
        port: 0,
        host: '127.0.0.1',
        defaultSlateUri: `${media.url}/${fixtures.slate.path}`,
      });
      await engine.start();
      const engineId = playbackChannelId(new URL(own.url).host, 'e2e');
      const playlistUrl = `http://127.0.0.1:${engine.port}/channels/${engineId}/0.m3u8`;
      await expect
        .poll(async () => (await http(playlistUrl)).text, { timeout: 20_000, interval: 500 })
        .toMatch(/#EXTINF/);
      const playlist = (await http(playlistUrl)).text;

      // The engine asks for what is on air at each item's start (VodRequest.startMs) and joins the
      // first entry where the wall clock is in it.
      const entries = plan.planned.map((p) => p.entry);
      const entryAt = (ms: number) => entries.find((e) => e.start_time <= ms && ms < e.end_time);
      expect(answers.find((a) => a.uri === vodA.url)?.startOffset).toBeGreaterThan(0);
      // Each item is tagged with the entry it plays. (The joined item's own tag may have left the
      // live window with its first segment by the time the playlist is read.)
      const tags = playlist
        .split('\n')
        .filter((line) => line.startsWith('#EXT-X-DATERANGE:'))
        .map((line) => parseAttributeList(line.slice('#EXT-X-DATERANGE:'.length)));
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) {
        expect(tag['X-SCHEDULE-ENTRY-ID']).toBe(entryAt(Date.parse(tag['START-DATE']!))?.id);
        expect(tag['X-TITLE']).toBe('Vod A');
      }
      // Every segment plays where its entry's schedule says, behind it by less than one segment and
      // never ahead: a join snaps down to the start of the segment holding its offset (playout/
      // drafts.ts). vodA's segments are 2 s; the engine lists a TS VOD's first with its audio lead
      // (vod/audio-lead.ts, at most one AAC frame), so every later one starts up to that much later.
      const segments = parseMediaPlaylist(playlist).segments.filter((s) => s.uri.includes('/vod-a/'));
      expect(segments.length).toBeGreaterThan(0);
      for (const segment of segments) {
        const pdt = segment.programDateTimeMs!;
        const entry = entryAt(pdt);
        expect(entry, segment.uri).toBeDefined();
        const index = Number(/vod-a\/180p\/seg_(\d{3})\.ts$/.exec(segment.uri)?.[1]);
        const behindMs = pdt - entry!.start_time - index * 2000;
        expect(behindMs, `${segment.uri} at ${new Date(pdt).toISOString()}`).toBeGreaterThanOrEqual(0);
        expect(behindMs, `${segment.uri} at ${new Date(pdt).toISOString()}`).toBeLessThan(
          2000 + 2 * AAC_FRAME_MS,
        );
      }
    } finally {
      await engine?.stop();
      await own.close();
      await media.close();
    }
  });
});
