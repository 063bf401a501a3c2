/**
 * A channel's live events over HTTP (POST/GET /channel/{id}/events, DELETE .../{eventId}): the caller's
 * own channels only, validated like the rest of the API, and read by the engine fleet's channel table
 * as LIVE events of its stream switch manager.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../core/aws';
import { tableName, tables } from '../../core/resources';
import { ChannelTableManager } from '../../engine-container/host/channel-table-manager';
import { dynamoChannelStore } from '../../functions/channel/stores/channel-store';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';

let system: RunningSystem;
let api: string;

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent', TOKEN_LIMIT_PER_IP_PER_HOUR: '1000' },
    services: ['channel'],
  });
  api = system.urls.channel!;
});
afterAll(async () => {
  await system?.stop();
});

let n = 0;
const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${api}${path}`, {
    method,
    headers: { 'x-jwt': `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
async function channelOf(): Promise<{ token: string; id: string; name: string }> {
  const res = await fetch(`${api}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Acme', email: `live${++n}@acme.test` }),
  });
  const { token } = (await res.json()) as { token: string };
  const name = `live-${n}`;
  const made = await call('POST', '/channel', token, {
    name,
    type: 'Loop',
    url: 'https://vod.example/a.m3u8',
  });
  expect(made.status).toBe(201);
  return { token, id: ((await made.json()) as { id: string }).id, name };
}
const match = {
  url: 'https://live.example/match.m3u8',
  start: '2030-05-01T18:00:00Z',
  end: '2030-05-01T19:00:00Z',
};

describe('live events of a channel', () => {
  it('adds, lists and removes an event; the engine reads it as a LIVE event', async () => {
    const { token, id, name } = await channelOf();
    const made = await call('POST', `/channel/${id}/events`, token, match);
    expect(made.status).toBe(201);
    const event = (await made.json()) as { id: string };
    expect(event).toEqual({
      id: expect.any(String),
      url: match.url,
      start_time: Date.parse(match.start),
      end_time: Date.parse(match.end),
      start: '2030-05-01T18:00:00.000Z',
      end: '2030-05-01T19:00:00.000Z',
    });
    expect(await (await call('GET', `/channel/${id}/events`, token)).json()).toEqual([event]);

    const table = new ChannelTableManager(dynamoChannelStore(documentClient(), tableName(tables.channels)));
    await table.refresh();
    expect(await table.getSchedule(name)).toEqual([
      expect.objectContaining({
        eventId: event.id,
        type: 1,
        uri: match.url,
        start_time: Date.parse(match.start),
      }),
    ]);

    expect((await call('DELETE', `/channel/${id}/events/${event.id}`, token)).status).toBe(204);
    expect(await (await call('GET', `/channel/${id}/events`, token)).json()).toEqual([]);
    expect((await call('DELETE', `/channel/${id}/events/${event.id}`, token)).status).toBe(404);
  });

  it("answers 404 for another tenant's channel", async () => {
    const mine = await channelOf();
    const other = await channelOf();
    expect((await call('POST', `/channel/${other.id}/events`, mine.token, match)).status).toBe(404);
    expect((await call('GET', `/channel/${other.id}/events`, mine.token)).status).toBe(404);
  });

  it.each([
    ['end', { ...match, end: match.start }],
    ['start', { ...match, start: '2030-05-01 18:00' }],
    ['url', { ...match, url: 'ftp://live.example/x.m3u8' }],
  ])('refuses a bad %s with 400 naming it', async (field, body) => {
    const { token, id } = await channelOf();
    const res = await call('POST', `/channel/${id}/events`, token, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field });
  });
});
