/**
 * The channel and schedule APIs' errors as their OpenAPI documents say them: each case below is a
 * request that must fail; its status must be one the document lists for that operation, and its body
 * must fit the schema the document gives that status. Every error an operation names itself (409,
 * 403, 429 beside the generic ones) must be met by a case, so a status documented but never answered
 * (or answered but documented otherwise) fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../core/openapi';
import { MAX_LIVE_EVENTS } from '../../functions/channel/channel-schema';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { documentOf, tables } from './route-tables';
import { type JsonSchema, schemaErrors } from './schema-check';

let system: RunningSystem;
let token: string;
let tenant: string;

const jsonHeaders = (t?: string) => ({
  'content-type': 'application/json',
  ...(t ? { 'x-jwt': `Bearer ${t}` } : {}),
});

async function newToken(email: string) {
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: JSON.stringify({ company: 'Acme', email }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { token: string; tenant: string };
}

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent', TOKEN_LIMIT_PER_EMAIL_PER_DAY: '1' },
    services: ['channel', 'schedule'],
  });
  ({ token, tenant } = await newToken('errors@acme.test'));
  // What the conflicts need: a channel of each API, an entry, an auto-scheduler.
  const make = (url: string, body: unknown, t?: string) =>
    fetch(url, { method: 'POST', headers: jsonHeaders(t), body: JSON.stringify(body) });
  const loop = (name: string) => ({ name, type: 'Loop', url: 'https://vod.example.com/a/master.m3u8' });
  for (const name of ['taken', 'second', 'third'])
    expect((await make(`${system.urls.channel}/channel`, loop(name), token)).status).toBe(201);
  const event = (h: number) => ({
    url: 'https://live.example/l.m3u8',
    start: new Date(Date.UTC(2031, 0, 1, h)).toISOString(),
    end: new Date(Date.UTC(2031, 0, 1, h, 30)).toISOString(),
  });
  // A channel at its maximum of live events (MAX_LIVE_EVENTS).
  for (let h = 0; h < MAX_LIVE_EVENTS; h++)
    expect(
      (await make(`${system.urls.channel}/channel/${tenant}.second/events`, event(h % 24), token)).status,
    ).toBe(201);
  const api = system.urls.schedule!;
  expect((await make(`${api}/channels`, { id: 'tv', title: 'TV' })).status).toBe(201);
  const live = { title: 'M', type: 'LIVE', url: 'https://live.example/m.m3u8' };
  const entry = { ...live, start: '2031-01-01T10:00:00Z', end: '2031-01-01T11:00:00Z' };
  expect((await make(`${api}/channels/tv/schedule`, entry)).status).toBe(201);
  const feed = { id: 'feed', url: 'https://feeds.example/a.atom', channelId: 'tv' };
  expect((await make(`${api}/mrss`, feed)).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

interface Case {
  method: string;
  /** The documented path (operation), and the one requested. */
  path: string;
  url: string;
  body?: unknown;
  /** Default: the trial token. */
  token?: string | null;
  status: number;
}

const channelCases = (): Case[] => {
  const own = `${tenant}.taken`;
  const c = (method: string, path: string, url: string, status: number, extra: Partial<Case> = {}) => ({
    method,
    path,
    url,
    status,
    ...extra,
  });
  return [
    c('POST', '/channel', '/channel', 400, {
      body: { name: 'Bad Name', type: 'Loop', url: 'https://x/a.m3u8' },
    }),
    c('POST', '/channel', '/channel', 401, { body: {}, token: null }),
    c('POST', '/channel', '/channel', 409, {
      body: { name: 'taken', type: 'Loop', url: 'https://x/a.m3u8' },
    }),
    c('POST', '/channel', '/channel', 403, {
      body: { name: 'fourth', type: 'Loop', url: 'https://x/a.m3u8' },
    }),
    c('GET', '/channel', '/channel?limit=0', 400),
    c('GET', '/channel', '/channel', 401, { token: null }),
    c('GET', '/channel/{id}', '/channel/nobody.nothing', 404),
    c('GET', '/channel/{id}', '/channel/not%20an%20id', 400),
    c('PATCH', '/channel/{id}', `/channel/${own}`, 400, { body: { name: 'x' } }),
    c('PATCH', '/channel/{id}', '/channel/nobody.nothing', 404, { body: { url: 'https://x/a.m3u8' } }),
    c('DELETE', '/channel/{id}', '/channel/nobody.nothing', 404),
    c('POST', '/channel/{id}/events', `/channel/${own}/events`, 400, { body: { url: 'https://x/l.m3u8' } }),
    c('POST', '/channel/{id}/events', `/channel/${tenant}.second/events`, 409, {
      body: { url: 'https://x/l.m3u8', start: '2031-01-02T10:00:00Z', end: '2031-01-02T11:00:00Z' },
    }),
    c('POST', '/channel/{id}/events', '/channel/nobody.nothing/events', 404, {
      body: { url: 'https://x/l.m3u8', start: '2031-01-01T10:00:00Z', end: '2031-01-01T11:00:00Z' },
    }),
    c('GET', '/channel/{id}/epg.json', `/channel/${own}/epg.json?date=2031-02-30`, 400),
    c('GET', '/channel/{id}/epg.xml', '/channel/nobody.nothing/epg.xml', 404),
    c('POST', '/token', '/token', 400, { body: { company: 'Acme', email: 'nope' }, token: null }),
    c('POST', '/token', '/token', 429, { body: { company: 'Acme', email: 'errors@acme.test' }, token: null }),
  ];
};

const scheduleCases = (): Case[] => {
  const p = '/api/v1';
  const c = (method: string, path: string, url: string, status: number, body?: unknown) => ({
    method,
    path: `${p}${path}`,
    url: `${p}${url}`,
    status,
    body,
    token: null,
  });
  const live = { title: 'M', type: 'LIVE', url: 'https://live.example/m.m3u8' };
  return [
    c('POST', '/channels', '/channels', 400, { id: '-bad', title: 'T' }),
    c('POST', '/channels', '/channels', 409, { id: 'tv', title: 'TV' }),
    c('GET', '/channels', '/channels?limit=x', 400),
    c('GET', '/channels/{id}', '/channels/nothing', 404),
    c('DELETE', '/channels/{id}', '/channels/nothing', 404),
    c('GET', '/channels/{id}/schedule', '/channels/tv/schedule?date=tomorrow', 400),
    c('GET', '/channels/{id}/schedule', '/channels/nothing/schedule', 404),
    c('POST', '/channels/{id}/schedule', '/channels/tv/schedule', 400, { ...live, start: 'soon' }),
    c('POST', '/channels/{id}/schedule', '/channels/tv/schedule', 400, {
      ...live,
      start: '2020-01-01T10:00:00Z',
      end: '2020-01-01T11:00:00Z',
    }),
    c('POST', '/channels/{id}/schedule', '/channels/tv/schedule', 409, {
      ...live,
      start: '2031-01-01T10:30:00Z',
      end: '2031-01-01T12:00:00Z',
    }),
    c('POST', '/channels/{id}/schedule', '/channels/nothing/schedule', 404, {
      ...live,
      start: '2031-01-01T10:00:00Z',
      end: '2031-01-01T11:00:00Z',
    }),
    c('DELETE', '/channels/{id}/schedule/{entryId}', '/channels/tv/schedule/m-nothing', 404),
    c('GET', '/channels/{id}/epg.json', '/channels/tv/epg.json?start=2031-01-01T00:00:00Z', 400),
    c('GET', '/channels/{id}/epg.xml', '/channels/nothing/epg.xml', 404),
    c('POST', '/mrss', '/mrss', 400, { id: 'f2', url: 'ftp://x', channelId: 'tv' }),
    c('POST', '/mrss', '/mrss', 409, { id: 'feed', url: 'https://feeds.example/a.atom', channelId: 'tv' }),
    c('GET', '/mrss/{id}', '/mrss/nothing', 404),
    c('DELETE', '/mrss/{id}', '/mrss/nothing', 404),
  ];
};

/** `#/components/schemas/X` of the document. */
const resolver = (doc: OpenApiDocument) => (ref: string) => {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, JsonSchema>;
  return schemas[ref.replace('#/components/schemas/', '')]!;
};

describe.each([
  ['channel', channelCases],
  ['schedule', scheduleCases],
] as const)('the %s API', (service, cases) => {
  const table = tables.find((t) => t.service === service)!;
  const doc = documentOf(table);

  it('answers each error case with a status and a body its document gives', async () => {
    const base = new URL(system.urls[service]!).origin;
    for (const k of cases()) {
      const res = await fetch(`${base}${k.url}`, {
        method: k.method,
        headers: jsonHeaders(k.token === null ? undefined : (k.token ?? token)),
        body: k.body === undefined ? undefined : JSON.stringify(k.body),
      });
      const what = `${k.method} ${k.url}`;
      const body = await res.json();
      expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(k.status);
      const op = doc.paths?.[k.path]?.[k.method.toLowerCase() as 'get'];
      expect(op, `${k.method} ${k.path} is documented`).toBeDefined();
      const documented = op!.responses?.[String(k.status)] as
        | { content?: Record<string, { schema: JsonSchema }> }
        | undefined;
      expect(documented, `${what}: ${k.status} is documented`).toBeDefined();
      const schema = documented!.content?.['application/json']?.schema;
      expect(schema, `${what}: ${k.status} has a body schema`).toBeDefined();
      expect(schemaErrors(body, schema!, resolver(doc)), what).toEqual([]);
    }
  });

  it('meets every error an operation names itself', () => {
    const met = new Set(cases().map((k) => `${k.method} ${k.path} ${k.status}`));
    const named = table.routes.flatMap((r) =>
      Object.keys(r.doc?.responses ?? {})
        .filter((s) => Number(s) >= 400)
        .map((s) => `${r.method} ${r.path} ${s}`),
    );
    expect(named.filter((n) => !met.has(n))).toEqual([]);
  });
});
