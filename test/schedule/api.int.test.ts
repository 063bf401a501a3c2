/**
 * The schedule API's contract over real HTTP (the local API gateway in front of the Lambda handler)
 * on DynamoDB Local: response shapes, tenants, validation and conflicts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenVerifier } from '../../core/auth/token-verifier';
import { ConfigError } from '../../core/env';
import { forbidden } from '../../core/errors';
import { createApiHandler } from '../../core/http';
import { createScheduleRoutes } from '../../functions/schedule/api/routes';
import { apiDepsFromEnv } from '../../functions/schedule/deps';
import { handler } from '../../functions/schedule/handler';
import { playbackChannelId } from '../../functions/schedule/playback-id';
import { type Gateway, startGateway } from '../../local/gateway';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { http } from './support/http';

let cloud: LocalCloud;
let gateway: Gateway;
let origin: StaticServer;
/** A VOD entry's URL must answer as HLS: a one-line playlist on a loopback origin. */
let film: string;
let host: string;
let n = 0;
const uid = (prefix: string) => `${prefix}-${++n}`;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'film-'));
  writeFileSync(join(root, 'master.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');
  origin = await startStaticServer(root);
  film = `${origin.url}/master.m3u8`;
  // The film is on loopback: the guarded fetch allows it only when told so.
  cloud = await startTestCloud({ ALLOW_PRIVATE_URLS: 'true' });
  gateway = await startGateway('schedule', handler, 0);
  host = new URL(gateway.url).host;
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
  await origin?.close();
});

const api = (path: string, options: Parameters<typeof http>[1] = {}) =>
  http(`${gateway.url}/api/v1${path}`, options);
const post = (path: string, body: unknown, options: Parameters<typeof http>[1] = {}) =>
  api(path, { ...options, method: 'POST', body });

async function newChannel(options: Parameters<typeof http>[1] = {}) {
  const id = uid('ch');
  const res = await post('/channels', { id, title: `Channel ${id}` }, options);
  expect(res.status).toBe(201);
  return id;
}

describe('channels', () => {
  it('creates a channel and answers 201 with the stored channel, tenant = the host called', async () => {
    const res = await post('/channels', { id: 'news', title: 'News 24' });
    expect(res.status).toBe(201);
    // playback: {PLAYBACK_BASE_URL}/channels/<tenantKey>~<id>/master.m3u8 (functions/schedule/playback-id.ts)
    const playback = `http://localhost:8000/channels/${playbackChannelId(host, 'news')}/master.m3u8`;
    const versions = { scheduleVersion: 0, liveVersion: 0 };
    const status = { status: 'starting' };
    expect(res.body).toEqual({
      id: 'news',
      tenant: host,
      title: 'News 24',
      playback,
      ...versions,
      ...status,
    });
    expect((await api('/channels/news')).body).toEqual({
      id: 'news',
      tenant: host,
      title: 'News 24',
      playback,
      ...versions,
      ...status,
    });
  });

  it('accepts a body whose tenant is the host called', async () => {
    const id = uid('ch');
    const res = await post('/channels', { id, tenant: host.toUpperCase(), title: 'T' });
    expect(res.status).toBe(201);
    expect((res.body as { tenant: string }).tenant).toBe(host);
  });

  it('refuses a body whose tenant is another host, naming the field', async () => {
    const res = await post('/channels', { id: uid('ch'), tenant: 'other.example:8090', title: 'T' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', field: 'tenant' });
  });

  it('answers 409 for an id the tenant already has', async () => {
    const id = await newChannel();
    const res = await post('/channels', { id, title: 'again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict' });
  });

  it('lets two tenants use the same channel id', async () => {
    const id = await newChannel();
    expect((await post('/channels', { id, title: 'B' }, { host: 'tenant-b.example:8090' })).status).toBe(201);
  });

  it('lists only the channels of the tenant called', async () => {
    const mine = await newChannel();
    const theirs = await newChannel({ host: 'tenant-c.example' });
    const list = (await api('/channels')).body as { id: string; tenant: string }[];
    expect(list.map((c) => c.id)).toContain(mine);
    expect(list.map((c) => c.id)).not.toContain(theirs);
    expect(list.every((c) => c.tenant === host)).toBe(true);
    expect((await api(`/channels/${theirs}`)).status).toBe(404);
  });

  it('refuses invalid bodies with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ title: 'no id' }, 'id'],
      [{ id: 'has space', title: 'T' }, 'id'],
      [{ id: uid('ch') }, 'title'],
      [{ id: uid('ch'), title: '   ' }, 'title'],
      [{ id: uid('ch'), title: 'T', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/channels', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', field });
    }
  });

  it('refuses a body that is not JSON', async () => {
    const res = await api('/channels', { method: 'POST', rawBody: '{"id": "x", "title": ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', field: 'body' });
  });

  it('deletes a channel with 204, then 404', async () => {
    const id = await newChannel();
    expect((await api(`/channels/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/channels/${id}`)).status).toBe(404);
    expect((await api(`/channels/${id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('auto-schedulers (mrss)', () => {
  const feedBody = (channelId: string, extra: Record<string, unknown> = {}) => ({
    id: uid('feed'),
    url: 'http://feeds.example/channel.xml',
    channelId,
    ...extra,
  });

  it('creates an auto-scheduler with 201 and the stored object, retention defaulting to 24 hours', async () => {
    const channelId = await newChannel();
    const body = feedBody(channelId);
    const res = await post('/mrss', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...body, tenant: host, config: { scheduleRetention: 24 } });
  });

  it('keeps the given retention', async () => {
    const res = await post('/mrss', feedBody(await newChannel(), { config: { scheduleRetention: 2.5 } }));
    expect((res.body as { config: unknown }).config).toEqual({ scheduleRetention: 2.5 });
  });

  it('refuses invalid auto-schedulers, naming the field', async () => {
    const channelId = await newChannel();
    const cases: [unknown, string][] = [
      [feedBody(channelId, { url: 'not a url' }), 'url'],
      [feedBody(channelId, { url: 'ftp://feeds.example/x.xml' }), 'url'],
      [feedBody(channelId, { config: { scheduleRetention: -1 } }), 'config.scheduleRetention'],
      [feedBody(channelId, { config: { scheduleRetention: '24' } }), 'config.scheduleRetention'],
      [feedBody(channelId, { tenant: 'elsewhere' }), 'tenant'],
      [{ id: uid('feed'), url: 'http://feeds.example/x.xml' }, 'channelId'],
      [feedBody('no-such-channel'), 'channelId'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/mrss', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', field });
    }
  });

  it('answers 409 for an existing auto-scheduler id', async () => {
    const body = feedBody(await newChannel());
    expect((await post('/mrss', body)).status).toBe(201);
    expect((await post('/mrss', { ...body, channelId: await newChannel() })).status).toBe(409);
  });

  it('answers 409 when the channel already has an auto-scheduler, and accepts one after its deletion', async () => {
    const channelId = await newChannel();
    const first = feedBody(channelId);
    expect((await post('/mrss', first)).status).toBe(201);
    const second = await post('/mrss', feedBody(channelId));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ message: expect.stringContaining('already has an auto-scheduler') });

    expect((await api(`/mrss/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/mrss/${first.id}`)).status).toBe(404);
    expect((await post('/mrss', feedBody(channelId))).status).toBe(201);
  });

  it('lists only the tenant’s auto-schedulers', async () => {
    const mine = feedBody(await newChannel());
    await post('/mrss', mine);
    const other = { host: 'tenant-d.example' };
    const theirs = feedBody(await newChannel(other));
    expect((await post('/mrss', theirs, other)).status).toBe(201);
    const list = (await api('/mrss')).body as { id: string }[];
    expect(list.map((f) => f.id)).toContain(mine.id);
    expect(list.map((f) => f.id)).not.toContain(theirs.id);
    expect((await api(`/mrss/${theirs.id}`)).status).toBe(404);
    expect((await api(`/mrss/${theirs.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('schedule', () => {
  it('answers 404 for a channel the tenant does not have', async () => {
    expect((await api('/channels/nope/schedule?date=2024-05-01')).status).toBe(404);
  });

  it('refuses a bad date or range with a 400 naming the parameter', async () => {
    const id = await newChannel();
    const cases: [string, string][] = [
      ['date=2024-02-30', 'date'],
      ['date=01-05-2024', 'date'],
      ['start=2024-05-01T00:00:00Z', 'end'],
      ['start=2024-05-01T00:00:00Z&end=2024-05-09T00:00:00Z', 'end'],
      ['start=soon&end=2024-05-02T00:00:00Z', 'start'],
    ];
    for (const [query, field] of cases) {
      const res = await api(`/channels/${id}/schedule?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', field });
    }
  });

  it('answers an empty array for a channel with no schedule', async () => {
    const id = await newChannel();
    const res = await api(`/channels/${id}/schedule?date=2024-05-01`);
    expect([res.status, res.body]).toEqual([200, []]);
  });
});

describe('what the engine polls', () => {
  const stamp = async () => {
    const res = await api('/changes');
    expect(res.status).toBe(200);
    return (res.body as { stamp: number }).stamp;
  };
  const live = (startMs: number) => ({
    title: 'Match',
    type: 'LIVE',
    url: 'https://live.example/match/master.m3u8',
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 3_600_000).toISOString(),
  });
  const versionsOf = async (id: string) => {
    const { scheduleVersion, liveVersion } = (await api(`/channels/${id}`)).body as Record<string, number>;
    return { scheduleVersion, liveVersion };
  };

  it('moves the change stamp with every channel create and delete, and not with reads', async () => {
    const before = await stamp();
    const id = await newChannel();
    const afterCreate = await stamp();
    expect(afterCreate).toBeGreaterThan(before);
    await api('/channels');
    await api(`/channels/${id}/schedule`);
    expect(await stamp()).toBe(afterCreate);
    expect((await api(`/channels/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await stamp()).toBeGreaterThan(afterCreate);
  });

  it('moves a channel’s liveVersion with a LIVE entry added and removed, its scheduleVersion with any entry', async () => {
    const id = await newChannel();
    const before = await stamp();
    const made = await post(`/channels/${id}/schedule`, live(Date.UTC(2031, 0, 1, 20)));
    expect(made.status).toBe(201);
    expect(await versionsOf(id)).toEqual({ scheduleVersion: 1, liveVersion: 1 });
    expect(await stamp()).toBeGreaterThan(before);
    const vod = await post(`/channels/${id}/schedule`, {
      ...live(Date.UTC(2031, 0, 1, 10)),
      type: 'VOD',
      url: film,
    });
    expect(vod.status).toBe(201);
    expect(await versionsOf(id)).toEqual({ scheduleVersion: 2, liveVersion: 1 });
    const entryId = (made.body as { id: string }).id;
    expect((await api(`/channels/${id}/schedule/${entryId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await versionsOf(id)).toEqual({ scheduleVersion: 3, liveVersion: 2 });
  });

  it('lists only the LIVE entries with type=LIVE, with no end to the range', async () => {
    const id = await newChannel();
    const far = Date.UTC(2031, 5, 1, 20);
    expect((await post(`/channels/${id}/schedule`, live(far))).status).toBe(201);
    expect(
      (
        await post(`/channels/${id}/schedule`, {
          ...live(far - 7_200_000),
          type: 'VOD',
          url: film,
        })
      ).status,
    ).toBe(201);
    const res = await api(`/channels/${id}/schedule?type=LIVE&start=2030-01-01T00:00:00Z`);
    expect(res.status).toBe(200);
    expect(
      (res.body as Array<{ type: string; start_time: number }>).map((e) => [e.type, e.start_time]),
    ).toEqual([['LIVE', far]]);
    expect((await api(`/channels/${id}/schedule?type=VOD&start=2030-01-01T00:00:00Z`)).status).toBe(400);
    expect((await api(`/channels/${id}/schedule?type=SPORT&date=2031-06-01`)).body).toMatchObject({
      field: 'type',
    });
  });
});

describe('authentication', () => {
  const withAuth = (verifyToken: TokenVerifier) => {
    const deps = apiDepsFromEnv({ env: { SCHEDULE_REQUIRE_AUTH: 'true' }, verifyToken });
    return createApiHandler(
      createScheduleRoutes(() => deps),
      { stage: 'test' },
    );
  };
  const event = (headers: Record<string, string>) =>
    ({
      version: '2.0',
      rawPath: '/api/v1/channels',
      headers: { host: 'auth.example', ...headers },
      requestContext: {
        http: { method: 'GET', sourceIp: '127.0.0.1' },
        requestId: 'r1',
        domainName: 'auth.example',
      },
    }) as never;
  const invoke = (h: ReturnType<typeof withAuth>, headers: Record<string, string>) =>
    h(event(headers), {} as never);

  it('lets every request through when authentication is off (the default)', async () => {
    expect((await api('/channels')).status).toBe(200);
  });

  it('requires x-jwt when SCHEDULE_REQUIRE_AUTH is true', async () => {
    const h = withAuth(async () => ({ tenant: 'auth-tenant' }));
    expect((await invoke(h, {})).statusCode).toBe(401);
    expect((await invoke(h, { 'x-jwt': 'Bearer good' })).statusCode).toBe(200);
    // A verifier that names no tenant cannot scope a request: refused, never the Host's tenant.
    expect(
      (
        await invoke(
          withAuth(async () => undefined),
          { 'x-jwt': 'Bearer good' },
        )
      ).statusCode,
    ).toBe(401);
  });

  it('passes the verifier’s refusal through, and turns its other failures into 401', async () => {
    const refusing = withAuth(async () => {
      throw forbidden('wrong_environment', 'this token is for the prod environment');
    });
    expect((await invoke(refusing, { 'x-jwt': 'Bearer x' })).statusCode).toBe(403);
    const broken = withAuth(async () => {
      throw new Error('bad signature');
    });
    expect((await invoke(broken, { 'x-jwt': 'Bearer x' })).statusCode).toBe(401);
  });

  it('shows the change stamp only to a token with the read-all scope', async () => {
    const changes = (h: ReturnType<typeof withAuth>) =>
      h(
        {
          version: '2.0',
          rawPath: '/api/v1/changes',
          headers: { host: 'auth.example', 'x-jwt': 'Bearer good' },
          requestContext: {
            http: { method: 'GET', sourceIp: '127.0.0.1' },
            requestId: 'r2',
            domainName: 'auth.example',
          },
        } as never,
        {} as never,
      );
    expect((await changes(withAuth(async () => ({ tenant: 'auth-tenant' })))).statusCode).toBe(403);
    const engine = withAuth(async () => ({ tenant: 'engine', scopes: ['schedule:read-all'] }));
    expect((await changes(engine)).statusCode).toBe(200);
  });

  it('refuses to start with authentication required but no verifier', () => {
    expect(() => apiDepsFromEnv({ env: { SCHEDULE_REQUIRE_AUTH: 'true' } })).toThrow(ConfigError);
  });
});
