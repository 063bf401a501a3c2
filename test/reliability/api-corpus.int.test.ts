/**
 * The hostile probe of issue 15 as a test: every route of the channel and schedule APIs, driven through
 * the local gateway and the real Lambda handlers on DynamoDB Local, with malformed encodings, over-long
 * ids, NUL, right-to-left overrides, traversal, deep and huge bodies, bad Host headers, bad limits and
 * forged cursors. Each must be refused with a 4xx whose JSON body names the problem; none is a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Apis, startApis } from './support/apis';
import { type Answer, type Probe, send } from './support/raw-http';

let apis: Apis;
let auth: Record<string, string>;

beforeAll(async () => {
  apis = await startApis();
  auth = await apis.operator('corpus', 5);
  const known = await send(apis.schedule, {
    method: 'POST',
    path: '/api/v1/channels',
    body: { id: 'known', title: 'Known' },
  });
  expect(known.status).toBe(201);
});

afterAll(async () => {
  await apis?.stop();
});

type Api = 'channel' | 'schedule';
interface Case extends Probe {
  name?: string;
  api: Api;
  /** The field the error body must name; undefined when the status and code say it all. */
  field?: string;
  status?: number;
  code?: string;
}

async function expectRefused(c: Case): Promise<Answer> {
  const answer = await send(c.api === 'channel' ? apis.channel : apis.schedule, {
    ...c,
    headers: { ...(c.api === 'channel' ? auth : {}), ...c.headers },
  });
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (c.status) expect(answer.status).toBe(c.status);
  expect(answer.headers['content-type']).toMatch(/application\/json/);
  const body = answer.json as { message?: unknown; code?: unknown; field?: unknown };
  expect(typeof body?.message).toBe('string');
  expect(typeof body?.code).toBe('string');
  if (c.code) expect(body.code).toBe(c.code);
  if (c.field) expect(body.field).toBe(c.field);
  return answer;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('path ids', () => {
  const badIds: [string, string][] = [
    ['malformed percent-encoding', '%E0%A4%A'],
    ['2 KB long', 'a'.repeat(2048)],
    ['100 characters long', 'a'.repeat(100)],
    ['holding a NUL', 'a%00b'],
    ['holding a right-to-left override', 'news%E2%80%AEtxt'],
    ['a traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['holding an encoded slash', 'a%2Fb'],
  ];
  const routes: [Api, string, (id: string) => string][] = [
    ['channel', 'DELETE', (id) => `/channel/${id}`],
    ['schedule', 'GET', (id) => `/api/v1/channels/${id}`],
    ['schedule', 'DELETE', (id) => `/api/v1/channels/${id}`],
    ['schedule', 'GET', (id) => `/api/v1/channels/${id}/schedule`],
    ['schedule', 'GET', (id) => `/api/v1/mrss/${id}`],
    ['schedule', 'DELETE', (id) => `/api/v1/mrss/${id}`],
    ['channel', 'GET', (id) => `/channel/${id}/events`],
    ['channel', 'DELETE', (id) => `/channel/${id}/events/e`],
    ['channel', 'GET', (id) => `/channel/${id}/epg.json`],
    ['schedule', 'POST', (id) => `/api/v1/channels/${id}/schedule`],
    ['schedule', 'DELETE', (id) => `/api/v1/channels/${id}/schedule/m-1`],
    ['schedule', 'GET', (id) => `/api/v1/channels/${id}/epg.xml`],
  ];
  const cases = routes.flatMap(([api, method, path]) =>
    badIds.map(([what, id]) => ({
      name: `${method} ${path('{id}')} with an id ${what}`,
      api,
      method,
      path: path(id),
    })),
  );

  it.each(cases)('$name is a 400 naming id', async (c) => {
    await expectRefused({ ...c, field: 'id', status: 400 });
  });

  it.each(badIds.filter(([what]) => what !== 'holding an encoded slash'))(
    'DELETE /api/v1/channels/{id}/schedule/{entryId} with an entryId %s is a 400 naming entryId',
    async (_what, entryId) => {
      await expectRefused({
        api: 'schedule',
        method: 'DELETE',
        path: `/api/v1/channels/known/schedule/${entryId}`,
        field: 'entryId',
        status: 400,
      });
    },
  );

  it('refuses a channel id with no prefix, naming id', async () => {
    await expectRefused({ api: 'channel', method: 'DELETE', path: '/channel/news', field: 'id' });
  });
});

describe('ids and text in bodies', () => {
  const badValues: [string, string][] = [
    ['2 KB long', 'a'.repeat(2048)],
    ['holding a NUL', 'a\u0000b'],
    ['holding a right-to-left override', 'news\u202etxt'],
    ['a traversal', '../../etc/passwd'],
    ['empty', ''],
  ];
  const loop = { type: 'Loop', url: 'https://vod.example.com/a/master.m3u8' };
  const feed = { id: 'feed', url: 'https://feeds.example.com/a.atom', channelId: 'known' };
  const cases: Case[] = badValues.flatMap(([what, value]) => [
    ...(what === 'a traversal'
      ? [] // harmless text in a company name
      : [
          {
            name: `POST /token with a company ${what}`,
            api: 'channel' as const,
            path: '/token',
            body: { company: value, email: 'a@b.test' },
            field: 'company',
          },
        ]),
    {
      name: `POST /channel with a name ${what}`,
      api: 'channel',
      path: '/channel',
      body: { ...loop, name: value },
      field: 'name',
    },
    {
      name: `POST /api/v1/channels with an id ${what}`,
      api: 'schedule',
      path: '/api/v1/channels',
      body: { id: value, title: 'T' },
      field: 'id',
    },
    {
      name: `POST /api/v1/mrss with an id ${what}`,
      api: 'schedule',
      path: '/api/v1/mrss',
      body: { ...feed, id: value },
      field: 'id',
    },
    {
      name: `POST /api/v1/mrss with a channelId ${what}`,
      api: 'schedule',
      path: '/api/v1/mrss',
      body: { ...feed, channelId: value },
      field: 'channelId',
    },
  ]);
  cases.push(
    {
      name: 'POST /api/v1/channels with a title holding a NUL',
      api: 'schedule',
      path: '/api/v1/channels',
      body: { id: 'nul', title: 'a\u0000b' },
      field: 'title',
    },
    {
      name: 'POST /api/v1/channels with a 2 KB tenant',
      api: 'schedule',
      path: '/api/v1/channels',
      body: { id: 't', title: 'T', tenant: 'a'.repeat(2048) },
      field: 'tenant',
    },
  );

  it.each(cases.map((c) => ({ ...c, method: 'POST' })))('$name is a 400 naming the field', async (c) => {
    await expectRefused({ ...c, status: 400 });
  });
});

describe('request bodies', () => {
  const posts: [Api, string][] = [
    ['channel', '/token'],
    ['channel', '/channel'],
    ['schedule', '/api/v1/channels'],
    ['schedule', '/api/v1/mrss'],
    ['channel', '/channel/corpus.news/events'],
    ['schedule', '/api/v1/channels/known/schedule'],
  ];
  const bodies: [string, string | Buffer, number, string][] = [
    ['malformed JSON', '{"id": "x", ', 400, 'body'],
    ['JSON nested 1,000 deep', `${'['.repeat(1000)}${']'.repeat(1000)}`, 400, 'body'],
    ['JSON nested 10,000 deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 413, ''],
    ['a 10 MB body', Buffer.alloc(10 * 1024 * 1024, 'a'), 413, ''],
  ];
  const cases = posts.flatMap(([api, path]) =>
    bodies.map(([what, body, status, field]) => ({
      name: `POST ${path} with ${what}`,
      api,
      path,
      body,
      status,
      field,
    })),
  );

  it.each(cases)('$name is a $status naming the problem', async (c) => {
    await expectRefused({ ...c, method: 'POST', field: c.field || undefined });
  });

  it('a body that is not JSON is a 415', async () => {
    await expectRefused({
      api: 'schedule',
      method: 'POST',
      path: '/api/v1/channels',
      headers: { 'content-type': 'text/plain' },
      body: 'id=x',
      status: 415,
    });
  });
});

describe('live events and schedule entries', () => {
  const event = {
    url: 'https://live.example.com/a/master.m3u8',
    start: '2030-01-01T20:00:00Z',
    end: '2030-01-01T21:00:00Z',
  };
  const entry = { title: 'Match', type: 'LIVE', ...event };
  const broken: [string, Record<string, unknown>, string][] = [
    ['a url that is no URL', { url: 'not a url' }, 'url'],
    ['a file: url', { url: 'file:///etc/passwd' }, 'url'],
    ['a start with no zone', { start: '2030-01-01T20:00:00' }, 'start'],
    ['a start holding a NUL', { start: '2030-01-01T20:00:00Z\u0000' }, 'start'],
    ['an end before its start', { end: '2030-01-01T19:00:00Z' }, 'end'],
    ['an unknown field', { extra: 1 }, ''],
  ];
  const cases: Case[] = broken.flatMap(([what, change, field]) => [
    {
      name: `POST /channel/{id}/events with ${what}`,
      api: 'channel' as const,
      path: '/channel/corpus.news/events',
      body: { ...event, ...change },
      field: field || undefined,
    },
    {
      name: `POST /api/v1/channels/{id}/schedule with ${what}`,
      api: 'schedule' as const,
      path: '/api/v1/channels/known/schedule',
      body: { ...entry, ...change },
      field: field || undefined,
    },
  ]);
  cases.push(
    {
      name: 'POST /api/v1/channels/{id}/schedule with a type that is neither LIVE nor VOD',
      api: 'schedule',
      path: '/api/v1/channels/known/schedule',
      body: { ...entry, type: 'SLATE' },
      field: 'type',
    },
    {
      name: 'POST /api/v1/channels/{id}/schedule with a LIVE entry without an end',
      api: 'schedule',
      path: '/api/v1/channels/known/schedule',
      body: { ...entry, end: undefined },
      field: 'end',
    },
  );

  it.each(cases.map((c) => ({ ...c, method: 'POST' })))('$name is a 400', async (c) => {
    await expectRefused({ ...c, status: 400 });
  });
});

describe('the Host of a schedule request', () => {
  const routes: [string, string, object?][] = [
    ['POST', '/api/v1/channels', { id: 'h', title: 'H' }],
    ['GET', '/api/v1/channels'],
    ['GET', '/api/v1/channels/known'],
    ['DELETE', '/api/v1/channels/known'],
    ['GET', '/api/v1/channels/known/schedule'],
    ['POST', '/api/v1/mrss', { id: 'f', url: 'https://feeds.example.com/a.atom', channelId: 'known' }],
    ['GET', '/api/v1/mrss'],
    ['GET', '/api/v1/mrss/f'],
    ['DELETE', '/api/v1/mrss/f'],
  ];
  const hosts: [string, string][] = [
    ['empty', ''],
    ['2 KB long', `${'a'.repeat(2048)}.example`],
    ['holding a path', 'example.com/../x'],
    ['holding a space', 'exa mple.com'],
  ];
  const cases = routes.flatMap(([method, path, body]) =>
    hosts.map(([what, host]) => ({
      name: `${method} ${path} with a Host ${what}`,
      method,
      path,
      body,
      host,
    })),
  );

  it.each(cases)('$name is a 400 naming host', async (c) => {
    await expectRefused({ ...c, api: 'schedule', headers: { host: c.host }, field: 'host', status: 400 });
  });
});

describe('pages', () => {
  const lists: [Api, string, unknown][] = [
    ['channel', '/channel', { tenant: 'other', name: 'news', pk: 'CHANNEL#news', sk: 'CHANNEL' }],
    ['schedule', '/api/v1/channels', { tenant: 'other.example:80', id: 'x' }],
    ['schedule', '/api/v1/mrss', { tenant: 'other.example:80', id: 'x' }],
    ['schedule', '/api/v1/channels/known/schedule', { channelKey: 'other.example:80#known', end_time: 5e12 }],
  ];
  const cursors = (foreign: unknown): [string, string][] => [
    ['garbled', 'not*a*cursor'],
    ['that is not JSON', Buffer.from('hello').toString('base64url')],
    ['holding another tenant’s key', b64(foreign)],
    ['holding a key with extra fields', b64({ ...(foreign as object), extra: 1 })],
    ['5,000 characters long', 'A'.repeat(5000)],
    ['empty', ''],
  ];
  const cursorCases = lists.flatMap(([api, path, foreign]) =>
    cursors(foreign).map(([what, cursor]) => ({
      name: `GET ${path} with a cursor ${what}`,
      api,
      path: `${path}?cursor=${encodeURIComponent(cursor)}`,
    })),
  );
  const limitCases = lists.flatMap(([api, path]) =>
    ['0', '-1', 'ten', '1001', '', '1e3'].map((limit) => ({
      name: `GET ${path} with limit "${limit}"`,
      api,
      path: `${path}?limit=${limit}`,
    })),
  );

  it.each(cursorCases)('$name is a 400 naming cursor', async (c) => {
    await expectRefused({ ...c, field: 'cursor', status: 400 });
  });

  it('a schedule cursor from before the range asked is a 400 naming cursor', async () => {
    const cursor = b64({
      channelKey: `${new URL(apis.schedule).host}#known`,
      end_time: Date.UTC(2024, 0, 1),
    });
    await expectRefused({
      api: 'schedule',
      path: `/api/v1/channels/known/schedule?date=2024-05-01&cursor=${cursor}`,
      field: 'cursor',
      status: 400,
    });
  });

  it.each(limitCases)('$name is a 400 naming limit', async (c) => {
    await expectRefused({ ...c, field: 'limit', status: 400 });
  });
});

describe('other input', () => {
  it.each([
    ['a date holding a NUL', 'date=2024-05-01%00', 'date'],
    ['a 2 KB date', `date=${'9'.repeat(2048)}`, 'date'],
    ['a start that is no instant', 'start=..%2F&end=2024-05-02T00:00:00Z', 'start'],
  ])('a schedule query with %s is a 400 naming it', async (_what, query, field) => {
    await expectRefused({
      api: 'schedule',
      path: `/api/v1/channels/known/schedule?${query}`,
      field,
      status: 400,
    });
  });

  it('an 8 KB token is a 401', async () => {
    await expectRefused({
      api: 'channel',
      path: '/channel',
      headers: { 'x-jwt': `Bearer ${'a'.repeat(8192)}` },
      status: 401,
    });
  });

  it('an unknown route is a JSON 404 and a known path with another method a JSON 405', async () => {
    await expectRefused({ api: 'schedule', path: '/api/v1/..%2F..%2Fetc', status: 404 });
    await expectRefused({ api: 'channel', method: 'PUT', path: '/channel', status: 405 });
  });
});
