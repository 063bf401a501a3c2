/**
 * What an idle engine costs: the real engine host (createOnairEngine) against DynamoDB Local and the
 * schedule handler behind the API Gateway stand-in, each reached through a counting proxy, so the
 * requests are counted where they arrive. Over the same number of polling intervals, an engine with 30
 * channel-API and 30 schedule channels sends no more requests than one with 3 and 3 (docs/deploy.md
 * "Polling cost"). And a LIVE entry made through the API while the engine runs is on air within 10 s
 * of its start, on the channel's own timeline (the program date-time of its first live segment).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../core/aws';
import { tableName, tables } from '../../core/resources';
import { waitFor } from '../../core/wait-for';
import { createOnairEngine, type OnairEngine } from '../../engine-container/host/onair-engine';
import { channelId } from '../../functions/channel/channel-id';
import { dynamoChannelStore } from '../../functions/channel/stores/channel-store';
import { dynamoScheduleStores } from '../../functions/schedule/deps';
import { handler } from '../../functions/schedule/handler';
import { playbackChannelId } from '../../functions/schedule/playback-id';
import { type Gateway, startGateway } from '../../local/gateway';
import { http } from '../schedule/support/http';
import { type CountingProxy, dynamoKey, routeKey, startCountingProxy } from '../support/counting-proxy';
import { type LiveSource, startLiveSource } from '../support/live-source';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { awaitAll } from '../support/promises/await-all';
import { type StaticServer, startStaticServer } from '../support/static-server';

const STATIC = fileURLToPath(new URL('../../engine-container/static', import.meta.url));
const SCHEDULE_TENANT = 'polling.example';

let cloud: LocalCloud;
let gateway: Gateway;
let origin: StaticServer;
let dynamo: CountingProxy;
let api: CountingProxy;

beforeAll(async () => {
  cloud = await startTestCloud();
  // Before the first SDK client exists: every DynamoDB call of this process passes the proxy.
  dynamo = await startCountingProxy(cloud.env.AWS_ENDPOINT_URL_DYNAMODB!, dynamoKey);
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.url;
  gateway = await startGateway('schedule', handler, 0);
  api = await startCountingProxy(gateway.url, routeKey(/(\/channels\/)[^/]+/));
  origin = await startStaticServer(STATIC);
  Object.assign(process.env, {
    SCHEDULE_SERVICE_API_URL: `${api.url}/api/v1`,
    // The service runs without tokens here (local mode): any token passes.
    SCHEDULE_SERVICE_TOKEN: 'local',
    ENGINE_LOG_STORE: 'memory',
    // Like the playout log's, the as-run log's writes are playout (one per item aired), not polling.
    ENGINE_ASRUN: 'false',
    ENGINE_SLATE_URI: `${origin.url}/slate/master.m3u8`,
    ALLOW_PRIVATE_URLS: 'true',
  });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await gateway?.close();
  await origin?.close();
  await dynamo?.close();
  await cloud?.stop();
});

const channelStore = () => dynamoChannelStore(documentClient(), tableName(tables.channels));

/** `count` more channels of each source: Loop channels of the channel API, empty schedule channels. */
async function addChannels(from: number, count: number): Promise<void> {
  const store = channelStore();
  const { channels } = dynamoScheduleStores();
  for (let i = from; i < from + count; i++) {
    const name = `poll-${i}`;
    const created = await store.create(
      {
        id: channelId('polling', name),
        tenant: 'polling',
        name,
        type: 'Loop',
        url: `${origin.url}/demo/master.m3u8`,
        createdAt: Date.now(),
      },
      1000,
    );
    expect(created.ok).toBe(true);
    expect(await channels.create({ id: name, tenant: SCHEDULE_TENANT, title: name }, Date.now())).toBe(true);
  }
}

/**
 * The engine host with its `channels` channels, `onAir` of them on air (with an item: the Loop ones;
 * empty schedule channels wait off air for content, docs/media.md "The channel's ladder"), polling
 * every `intervalMs`.
 */
async function startEngine(channels: number, onAir: number, intervalMs: number): Promise<OnairEngine> {
  process.env.ENGINE_CHANNEL_REFRESH_MS = String(intervalMs);
  dynamo.reset();
  const onair = createOnairEngine({ port: 0, host: '127.0.0.1', scheduleRefreshIntervalMs: intervalMs });
  const withItem = new Set<string>();
  onair.engine.core.events.subscribe((e) => {
    if (e.type === 'item_appended') withItem.add(e.channelId);
  });
  await onair.start();
  // Settled: every channel has finished an advance (a finite next wake), so each one waiting for
  // content has read its (empty) schedule once; it reads it again only when its schedule version moves.
  const { core } = onair.engine;
  const settled = () =>
    core.channelIds.filter((id) => Number.isFinite(core.channel(id)?.playout.nextWakeMs())).length;
  await waitFor(
    () => ({ known: core.channelIds.length, onAir: withItem.size, settled: settled() }),
    (n) => n.known >= channels && n.onAir >= onAir && n.settled >= channels,
    { timeoutMs: 30_000, what: `${channels} channels, ${onAir} of them on air, all settled` },
  );
  // Each channel on air has written its status (a write per change of status, not polling: the
  // status tracker's, docs/design.md) before the polling is counted.
  const statusWrites = `UpdateItem ${tableName(tables.playoutLog)}`;
  await waitFor(
    () => dynamo.counts().get(statusWrites) ?? 0,
    (n) => n >= onAir,
    { timeoutMs: 30_000, what: `the status of the ${onAir} channels on air written` },
  );
  return onair;
}

/** Requests at both edges while the engine's channel table manager reads the table `intervals` times. */
async function requestsOver(intervals: number): Promise<{ total: number; counts: Record<string, number> }> {
  const table = tableName(tables.channels);
  dynamo.reset();
  api.reset();
  const tableReads = () =>
    [...dynamo.counts()]
      .filter(([key]) => key.endsWith(` ${table}`) && /^(GetItem|Query) /.test(key))
      .reduce((n, [, c]) => n + c, 0);
  await waitFor(tableReads, (n) => n >= intervals, { timeoutMs: 60_000, what: `${intervals} intervals` });
  const counts = Object.fromEntries([
    ...[...dynamo.counts()].map(([k, v]) => [`dynamodb ${k}`, v] as const),
    ...[...api.counts()].map(([k, v]) => [`schedule-api ${k}`, v] as const),
  ]);
  return { total: dynamo.total() + api.total(), counts };
}

describe('an idle engine’s polling', () => {
  it('sends no more requests over 10 intervals with 30 channels of each source than with 3', async () => {
    const measured: Array<{ total: number; counts: Record<string, number> }> = [];
    let have = 0;
    for (const channels of [3, 30]) {
      await addChannels(have, channels - have);
      have = channels;
      const onair = await startEngine(2 * channels, channels, 500);
      try {
        measured.push(await requestsOver(10));
      } finally {
        await onair.stop();
      }
    }
    const [few, many] = measured as [(typeof measured)[0], (typeof measured)[0]];
    // Two sources poll on two timers: one round of each may fall either side of the window's ends.
    expect(many.total, JSON.stringify({ few: few.counts, many: many.counts })).toBeLessThanOrEqual(
      few.total + 4,
    );
  }, 180_000);
});

describe('a LIVE entry made while the engine runs', () => {
  let live: LiveSource | undefined;
  afterAll(async () => {
    await live?.close();
  });

  it('is on air within 10 s of its start, at the production polling intervals', async () => {
    await dynamoScheduleStores().channels.create(
      { id: 'live-soon', tenant: SCHEDULE_TENANT, title: 'Live soon' },
      Date.now(),
    );
    // The source's first segments take seconds of real time: it starts while the engine does.
    let onair: OnairEngine | undefined;
    try {
      const [source, engine] = await awaitAll([
        startLiveSource().then((started) => (live = started)),
        startEngine(61, 30, 2000).then((started) => (onair = started)),
      ]);
      const start = Date.now() + 3000;
      const made = await http(`${gateway.url}/api/v1/channels/live-soon/schedule`, {
        method: 'POST',
        host: SCHEDULE_TENANT,
        body: {
          title: 'Match',
          type: 'LIVE',
          url: source.url,
          start: new Date(start).toISOString(),
          end: new Date(start + 60_000).toISOString(),
        },
      });
      expect(made.status).toBe(201);
      const playlistUrl = `http://127.0.0.1:${engine.engine.port}/channels/${playbackChannelId(SCHEDULE_TENANT, 'live-soon')}/0.m3u8`;
      const liveBase = source.url.replace(/master\.m3u8$/, '');
      const firstLiveAt = await waitFor(
        async () => firstSegmentFrom((await http(playlistUrl)).text, liveBase),
        (at) => at !== undefined,
        { timeoutMs: 45_000, intervalMs: 500, what: 'the LIVE source in the channel' },
      );
      expect(firstLiveAt! - start).toBeLessThanOrEqual(10_000);
    } finally {
      await onair?.stop();
    }
  }, 120_000);
});

/** When the playlist's first segment from `base` starts (program date-time); undefined when it has none. */
function firstSegmentFrom(playlist: string, base: string): number | undefined {
  let next: number | undefined;
  let duration = 0;
  for (const line of playlist.split('\n')) {
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:'))
      next = Date.parse(line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length));
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice('#EXTINF:'.length)) * 1000;
    else if (line !== '' && !line.startsWith('#')) {
      if (line.startsWith(base)) return next;
      // A segment without a date-time of its own starts where the one before it ends.
      if (next !== undefined) next += duration;
    }
  }
  return undefined;
}
