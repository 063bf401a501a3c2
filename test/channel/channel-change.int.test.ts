/**
 * Reading and changing one channel (GET and PATCH /channel/{id}), the HLS check of its sources
 * (accepted with `warnings`), and 405 answers with their `Allow` header: the channel service on the
 * real local cloud, over HTTP, with a static origin on loopback for the sources.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../core/aws';
import { tableName, tables } from '../../core/resources';
import { dynamoChannelStore } from '../../functions/channel/stores/channel-store';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { type StaticServer, startStaticServer } from '../support/static-server';

let system: RunningSystem;
let origin: StaticServer;
let api: string;
let emails = 0;

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent' },
    services: ['channel'],
  });
  api = system.urls.channel!;
  const root = mkdtempSync(join(tmpdir(), 'sources-'));
  writeFileSync(join(root, 'good.m3u8'), '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-ENDLIST\n');
  writeFileSync(join(root, 'page.html'), '<html>not a playlist</html>');
  origin = await startStaticServer(root);
}, 120_000);

afterAll(async () => {
  await origin?.close();
  await system?.stop();
});

async function trialToken(): Promise<{ token: string; tenant: string }> {
  const res = await call('POST', '/token', { company: 'Acme', email: `change${++emails}@acme.test` });
  return (await res.json()) as { token: string; tenant: string };
}

const call = (method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-jwt': `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function loop(token: string, name: string, url = `${origin.url}/good.m3u8`) {
  const res = await call('POST', '/channel', { name, type: 'Loop', url }, token);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; warnings?: unknown };
}

describe('the HLS check of a new channel', () => {
  it('accepts a source that answers HLS without a warning', async () => {
    const { token } = await trialToken();
    expect((await loop(token, 'chk-good')).warnings).toBeUndefined();
  });

  it('accepts a source that answers 404 or not HLS, with a warning naming each field', async () => {
    const { token } = await trialToken();
    const res = await call(
      'POST',
      '/channel',
      {
        name: 'chk-bad',
        type: 'Loop',
        url: `${origin.url}/missing.m3u8`,
        opts: { preroll: { url: `${origin.url}/page.html`, duration: '5000' } },
      },
      token,
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { warnings: unknown }).warnings).toEqual([
      { field: 'url', code: 'not_found', message: 'url does not answer as HLS (not_found)' },
      {
        field: 'opts.preroll.url',
        code: 'not_hls',
        message: 'opts.preroll.url does not answer as HLS (not_hls)',
      },
    ]);
  });

  it('does not call a WebHook channel’s URL', async () => {
    const { token } = await trialToken();
    const before = origin.requests().length;
    const res = await call(
      'POST',
      '/channel',
      { name: 'chk-hook', type: 'WebHook', url: `${origin.url}/hook` },
      token,
    );
    expect(res.status).toBe(201);
    expect((await res.json()) as object).not.toHaveProperty('warnings');
    expect(origin.requests().length).toBe(before);
  });
});

describe('GET /channel/{id}', () => {
  it('answers the channel in full with its status', async () => {
    const { token, tenant } = await trialToken();
    const { id } = await loop(token, 'get-one');
    const res = await call('GET', `/channel/${id}`, undefined, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: `${tenant}-get-one`,
      name: 'get-one',
      type: 'Loop',
      url: `${origin.url}/good.m3u8`,
      playback: `${system.env.PLAYBACK_BASE_URL}/channels/get-one/master.m3u8`,
      status: 'starting',
    });
  });

  it("answers 404 for another tenant's channel", async () => {
    const { token } = await trialToken();
    const { id } = await loop(token, 'get-theirs');
    const other = await trialToken();
    expect((await call('GET', `/channel/${id}`, undefined, other.token)).status).toBe(404);
  });
});

describe('PATCH /channel/{id}', () => {
  it('changes the source and the opts, and moves the change stamp engines watch', async () => {
    const { token } = await trialToken();
    const { id } = await loop(token, 'patch-src');
    const store = dynamoChannelStore(documentClient(), tableName(tables.channels));
    const before = await store.changeStamp();
    const url = `${origin.url}/good.m3u8?v=2`;
    const preroll = { url: `${origin.url}/good.m3u8`, duration: '3000' };
    const res = await call('PATCH', `/channel/${id}`, { url, opts: { preroll } }, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ url, opts: { preroll }, status: 'starting' });
    expect(await (await call('GET', `/channel/${id}`, undefined, token)).json()).toMatchObject({
      url,
      opts: { preroll },
    });
    expect(await store.changeStamp()).toBeGreaterThan(before);
    const cleared = await call('PATCH', `/channel/${id}`, { opts: {} }, token);
    expect(await cleared.json()).not.toHaveProperty('opts');
  });

  it('warns when the new source does not answer as HLS', async () => {
    const { token } = await trialToken();
    const { id } = await loop(token, 'patch-warn');
    const res = await call('PATCH', `/channel/${id}`, { url: `${origin.url}/page.html` }, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ warnings: [{ field: 'url', code: 'not_hls' }] });
  });

  it('refuses to change the name or the type, naming the field', async () => {
    const { token } = await trialToken();
    const { id } = await loop(token, 'patch-name');
    for (const [body, field] of [
      [{ name: 'other' }, 'name'],
      [{ type: 'WebHook' }, 'type'],
      [{}, 'url'],
    ] as const) {
      const res = await call('PATCH', `/channel/${id}`, body, token);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'bad_request', field });
    }
  });

  it('refuses a preroll on a WebHook channel', async () => {
    const { token, tenant } = await trialToken();
    await call('POST', '/channel', { name: 'patch-hook', type: 'WebHook', url: `${origin.url}/hook` }, token);
    const res = await call(
      'PATCH',
      `/channel/${tenant}.patch-hook`,
      { opts: { preroll: { url: `${origin.url}/good.m3u8`, duration: '3000' } } },
      token,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'opts.preroll' });
  });

  it("answers 404 for another tenant's channel and leaves it as it was", async () => {
    const { token } = await trialToken();
    const { id } = await loop(token, 'patch-theirs');
    const other = await trialToken();
    const res = await call('PATCH', `/channel/${id}`, { url: `${origin.url}/page.html` }, other.token);
    expect(res.status).toBe(404);
    expect(await (await call('GET', `/channel/${id}`, undefined, token)).json()).toMatchObject({
      url: `${origin.url}/good.m3u8`,
    });
  });
});

describe('405', () => {
  it('names the methods a path answers in Allow', async () => {
    const { token } = await trialToken();
    const list = await call('PUT', '/channel', {}, token);
    expect(list.status).toBe(405);
    expect(list.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(await list.json()).toMatchObject({ code: 'method_not_allowed' });
    const one = await call('PUT', '/channel/t.x', {}, token);
    expect(one.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
  });
});
