/**
 * The channel API validates URLs at create: credentials are refused everywhere (400 naming the field);
 * an address that is private or loopback as written is refused in a deployment and accepted with the
 * local switch (ALLOW_PRIVATE_URLS, set by npm start). Nothing is fetched at create.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelHandler } from '../../functions/channel/channel-api';
import { channelConfigFromEnv } from '../../functions/channel/config';
import { type Gateway, startGateway } from '../../local/gateway';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';

let system: RunningSystem;
let deployed: string;
let local: Gateway;

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { ALLOW_PRIVATE_URLS: 'false', TOKEN_LIMIT_PER_IP_PER_HOUR: '1000', LOG_LEVEL: 'silent' },
    services: ['channel'],
  });
  deployed = system.urls.channel!;
  // The same service with the local switch on, sharing the key and the tables.
  local = await startGateway(
    'channel-local',
    createChannelHandler({ ...channelConfigFromEnv(), allowPrivateUrls: true }),
    0,
  );
});

afterAll(async () => {
  await local?.close();
  await system?.stop();
});

let emails = 0;
async function token(): Promise<string> {
  const res = await post(deployed, '/token', { company: 'Acme', email: `sec${++emails}@acme.test` });
  return ((await res.json()) as { token: string }).token;
}

function post(base: string, path: string, body: unknown, jwt?: string) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(jwt ? { 'x-jwt': `Bearer ${jwt}` } : {}) },
    body: JSON.stringify(body),
  });
}

const loop = (url: string, preroll?: string) => ({
  name: `c${Math.floor(Math.random() * 1e9)}`,
  type: 'Loop',
  url,
  ...(preroll ? { opts: { preroll: { url: preroll, duration: '6000' } } } : {}),
});

describe('channel create in a deployment', () => {
  it.each([
    'http://127.0.0.1:8080/vod/master.m3u8',
    'http://10.0.0.1/vod/master.m3u8',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/vod/master.m3u8',
    'http://[::ffff:127.0.0.1]/vod/master.m3u8',
    'http://[64:ff9b::7f00:1]/vod/master.m3u8',
    'http://2130706433/vod/master.m3u8',
    'http://127.1/vod/master.m3u8',
    'http://0.0.0.0/vod/master.m3u8',
    'http://localhost:8000/vod/master.m3u8',
  ])('refuses %s with a 400 naming url', async (url) => {
    const res = await post(deployed, '/channel', loop(url), await token());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', field: 'url' });
  });

  it('refuses a private preroll URL with a 400 naming opts.preroll.url', async () => {
    const res = await post(
      deployed,
      '/channel',
      loop('https://vod.example.com/a.m3u8', 'http://192.168.1.10/p.m3u8'),
      await token(),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'opts.preroll.url' });
  });

  it('refuses a URL with credentials with a 400 naming the field', async () => {
    const res = await post(
      deployed,
      '/channel',
      loop('https://user:secret@vod.example.com/a.m3u8'),
      await token(),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { field: string; message: string };
    expect(body.field).toBe('url');
    expect(body.message).not.toContain('secret');
  });

  it('accepts a public host name (it is checked again when fetched)', async () => {
    const res = await post(
      deployed,
      '/channel',
      loop('https://vod.example.com/a/master.m3u8'),
      await token(),
    );
    expect(res.status).toBe(201);
  });
});

describe('channel create with the local switch (npm start)', () => {
  it('accepts a loopback URL', async () => {
    const res = await post(
      local.url,
      '/channel',
      loop('http://127.0.0.1:8080/vod/master.m3u8'),
      await token(),
    );
    expect(res.status).toBe(201);
  });

  it('still refuses a URL with credentials', async () => {
    const res = await post(
      local.url,
      '/channel',
      loop('http://user:pass@127.0.0.1:8080/v.m3u8'),
      await token(),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'url' });
  });
});
