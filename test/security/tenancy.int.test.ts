/**
 * Schedule tenancy with tokens (SCHEDULE_REQUIRE_AUTH=true): the tenant is the token's subject, never
 * the Host header; the engine's own service token (scope schedule:read-all) puts the channels of every
 * tenant on air, two tenants' channels of the same id as two distinct engine channels.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileKeyStore } from '../../core/auth/file-key-store';
import { newSigningKeys } from '../../core/auth/signing-key';
import { channelTokenVerifier } from '../../core/auth/token-verifier';
import { TokenService } from '../../core/auth/tokens';
import { createApiHandler } from '../../core/http';
import { createLogger } from '../../core/logger';
import { createSchedulePlugin } from '../../engine-container/host/schedule/index';
import { serviceTokenProvider } from '../../engine-container/host/service-token';
import { Engine } from '../../engine-container/src/index';
import { createScheduleRoutes } from '../../functions/schedule/api/routes';
import { apiDepsFromEnv, dynamoScheduleStores } from '../../functions/schedule/deps';
import type { FeedItem } from '../../functions/schedule/model';
import { planSchedule } from '../../functions/schedule/planning/plan-schedule';
import { playbackChannelId } from '../../functions/schedule/playback-id';
import { type Gateway, startGateway } from '../../local/gateway';
import { http } from '../schedule/support/http';
import { ensureFixtures } from '../support/fixtures';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { startStaticServer } from '../support/static-server';

let cloud: LocalCloud;
let gateway: Gateway;
let apiUrl: string;
let keyDir: string;
let tokens: TokenService;
const savedKeyFile = process.env.JWT_KEY_FILE;
const run = Date.now().toString(36);
const A = `ta${run}`;
const B = `tb${run}`;

const tokenFor = async (tenant: string) =>
  `Bearer ${(await tokens.issue({ tenant, env: 'test', plan: 'operator', maxChannels: 10 }, 3600)).token}`;

beforeAll(async () => {
  cloud = await startTestCloud();
  keyDir = await mkdtemp(join(tmpdir(), 'tenancy-keys-'));
  process.env.JWT_KEY_FILE = join(keyDir, 'jwt.json');
  const keys = await new FileKeyStore(process.env.JWT_KEY_FILE).createIfAbsent(await newSigningKeys());
  tokens = await TokenService.fromKeys(keys);
  const deps = apiDepsFromEnv({
    env: { SCHEDULE_REQUIRE_AUTH: 'true', PLAYBACK_BASE_URL: 'https://play.example' },
    verifyToken: channelTokenVerifier('test'),
  });
  gateway = await startGateway(
    'schedule-tenancy',
    createApiHandler(
      createScheduleRoutes(() => deps),
      { stage: 'test' },
    ),
    0,
  );
  apiUrl = `${gateway.url}/api/v1`;
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
  if (savedKeyFile === undefined) delete process.env.JWT_KEY_FILE;
  else process.env.JWT_KEY_FILE = savedKeyFile;
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

const as = (jwt: string, host?: string) => ({ headers: { 'x-jwt': jwt }, ...(host ? { host } : {}) });

describe('the tenant of a request with tokens', () => {
  it('is the token’s subject: B’s token with A’s Host sees only B’s data', async () => {
    const [a, b] = [await tokenFor(A), await tokenFor(B)];
    const created = await http(`${apiUrl}/channels`, {
      method: 'POST',
      body: { id: 'only-a', title: 'A only' },
      ...as(a, 'a.example'),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenant: A });
    expect((await http(`${apiUrl}/channels/only-a`, as(a, 'b.example'))).status).toBe(200);
    // B sends A's Host (and the host the channel was made on): still B, and A's channel is not there.
    expect((await http(`${apiUrl}/channels/only-a`, as(b, 'a.example'))).status).toBe(404);
    expect((await http(`${apiUrl}/channels/only-a/schedule`, as(b, 'a.example'))).status).toBe(404);
    const list = await http(`${apiUrl}/channels`, as(b, 'a.example'));
    expect(list.body).toEqual([]);
  });

  it('refuses another tenant’s data to a tenant token, and `?tenant=*`', async () => {
    const b = await tokenFor(B);
    expect((await http(`${apiUrl}/channels?tenant=${A}`, as(b))).status).toBe(403);
    expect((await http(`${apiUrl}/channels?tenant=*`, as(b))).status).toBe(403);
    expect((await http(`${apiUrl}/channels/only-a/schedule?tenant=${A}`, as(b))).status).toBe(403);
  });

  it('refuses a body naming another tenant', async () => {
    const res = await http(`${apiUrl}/channels`, {
      method: 'POST',
      body: { id: 'x', tenant: A, title: 'X' },
      ...as(await tokenFor(B)),
    });
    expect(res.status).toBe(400);
  });
});

describe('every tenant on air', () => {
  it('plays two tenants’ channels of the same id at once, as two channels', async () => {
    const fixtures = await ensureFixtures();
    const media = await startStaticServer(fixtures.root);
    let engine: Engine | undefined;
    try {
      const startMs = Date.now() - 5000;
      const playback: Record<string, string> = {};
      for (const tenant of [A, B]) {
        const res = await http(`${apiUrl}/channels`, {
          method: 'POST',
          body: { id: 'news', title: `News of ${tenant}` },
          ...as(await tokenFor(tenant)),
        });
        expect(res.status).toBe(201);
        playback[tenant] = (res.body as { playback: string }).playback;
        const vod: FeedItem = {
          id: 'a',
          title: `Vod of ${tenant}`,
          url: `${media.url}/${tenant === A ? fixtures.vodA.path : fixtures.vodB.path}`,
          durationMs: 20_000,
        };
        const plan = planSchedule({
          channelId: 'news',
          cursor: undefined,
          items: [vod],
          nowMs: startMs,
          horizonMs: 120_000,
          newId: () => crypto.randomUUID(),
        });
        expect(await dynamoScheduleStores().entries.append(tenant, 'news', undefined, plan.planned)).toBe(
          'appended',
        );
      }
      const ids = [playbackChannelId(A, 'news'), playbackChannelId(B, 'news')];
      expect(ids[0]).not.toBe(ids[1]);
      expect(playback[A]).toBe(`https://play.example/channels/${ids[0]}/master.m3u8`);
      expect(playback[B]).toBe(`https://play.example/channels/${ids[1]}/master.m3u8`);

      // The engine's own service token (scope schedule:read-all), as the engine host mints it.
      const plugin = createSchedulePlugin({
        apiUrl,
        token: serviceTokenProvider('test'),
        log: createLogger(),
      });
      const listed = (await plugin.channelManager.getChannels()).map((c) => c.id);
      expect(listed).toEqual(expect.arrayContaining(ids));
      engine = new Engine(plugin.assetManager, {
        channelManager: plugin.channelManager,
        port: 0,
        host: '127.0.0.1',
        defaultSlateUri: `${media.url}/${fixtures.slate.path}`,
      });
      await engine.start();
      const playlists: string[] = [];
      for (const id of ids) {
        const master = await http(`http://127.0.0.1:${engine.port}/channels/${id}/master.m3u8`);
        expect(master.status, id).toBe(200);
        const media0 = `http://127.0.0.1:${engine.port}/channels/${id}/0.m3u8`;
        await expect
          .poll(async () => (await http(media0)).text, { timeout: 20_000, interval: 500 })
          .toMatch(/#EXTINF/);
        playlists.push((await http(media0)).text);
      }
      expect(playlists[0]).toContain('/vod-a/');
      expect(playlists[1]).not.toContain('/vod-a/');
      expect(playlists[0]).not.toEqual(playlists[1]);
    } finally {
      await engine?.stop();
      await media.close();
    }
  });
});
