/**
 * Manual schedule entries over real HTTP on DynamoDB Local: POST /channels/{id}/schedule makes a LIVE
 * or VOD entry (listed by schedule?date= like the auto-scheduler's), DELETE removes it, bad bodies are
 * 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/schedule/handler';
import { type Gateway, startGateway } from '../../local/gateway';
import { ensureFixtures } from '../support/fixtures';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { http } from './support/http';

let cloud: LocalCloud;
let gateway: Gateway;
let origin: StaticServer;
let vodUrl: string;

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  origin = await startStaticServer(fixtures.root);
  vodUrl = `${origin.url}/${fixtures.vodA.path}`;
  // The VOD of a manual entry is on localhost: the guarded fetch allows it only when told so.
  cloud = await startTestCloud({ ALLOW_PRIVATE_URLS: 'true' });
  gateway = await startGateway('schedule', handler, 0);
  const made = await http(`${gateway.url}/api/v1/channels`, {
    method: 'POST',
    body: { id: 'tv', title: 'TV' },
  });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
  await origin?.close();
});

const entries = (body?: unknown, method = 'POST') =>
  http(`${gateway.url}/api/v1/channels/tv/schedule`, { method, body });
const live = {
  title: 'Match',
  type: 'LIVE',
  url: 'https://live.example/match/master.m3u8',
  start: '2030-05-01T18:00:00Z',
  end: '2030-05-01T19:45:00+00:00',
};

describe('manual schedule entries', () => {
  it('creates a LIVE entry: 201 in the shape schedule?date= lists, and DELETE removes it', async () => {
    const res = await entries(live);
    expect(res.status).toBe(201);
    const start = Date.parse(live.start);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^m-/),
      channelId: 'tv',
      title: 'Match',
      type: 'LIVE',
      url: live.url,
      start_time: start,
      end_time: start + 105 * 60_000,
      start: '2030-05-01T18:00:00.000Z',
      end: '2030-05-01T19:45:00.000Z',
      duration: 105 * 60,
      // A live source often starts just before its event: accepted, with a warning.
      warnings: [{ field: 'url', code: 'unavailable', message: 'url does not answer as HLS (unavailable)' }],
    });
    const { warnings: _, ...listed } = res.body as { id: string; warnings: unknown };
    const id = listed.id;
    const day = await http(`${gateway.url}/api/v1/channels/tv/schedule?date=2030-05-01`);
    expect(day.body).toEqual([listed]);
    expect(
      (await http(`${gateway.url}/api/v1/channels/tv/schedule/${id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await http(`${gateway.url}/api/v1/channels/tv/schedule?date=2030-05-01`)).body).toEqual([]);
    expect(
      (await http(`${gateway.url}/api/v1/channels/tv/schedule/${id}`, { method: 'DELETE' })).status,
    ).toBe(404);
  });

  it('gives a VOD entry without an end its VOD duration', async () => {
    const res = await entries({ title: 'Film', type: 'VOD', url: vodUrl, start: '2030-05-02T10:00:00Z' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'VOD', duration: 20, end: '2030-05-02T10:00:20.000Z' });
  });

  it.each([
    ['end', { ...live, end: live.start }],
    ['end', { ...live, end: undefined }],
    ['start', { ...live, start: '2030-05-01T18:00:00' }],
    ['url', { ...live, url: 'ftp://live.example/x.m3u8' }],
    ['type', { ...live, type: 'RERUN' }],
  ])('refuses a bad %s with 400 naming it', async (field, body) => {
    const res = await entries(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field });
  });

  it('refuses a VOD entry whose URL does not answer as HLS, naming url', async () => {
    const missing = { title: 'Film', type: 'VOD', url: `${origin.url}/no-such/master.m3u8` };
    const res = await entries({ ...missing, start: '2030-06-01T10:00:00Z', end: '2030-06-01T11:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'url', message: 'url does not answer as HLS (not_found)' });
  });

  it('refuses an entry wholly in the past, naming end', async () => {
    const res = await entries({ ...live, start: '2020-01-01T10:00:00Z', end: '2020-01-01T11:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'end', message: 'the entry ends in the past' });
    const vod = await entries({ title: 'Old', type: 'VOD', url: vodUrl, start: '2020-01-01T10:00:00Z' });
    expect(vod.status).toBe(400);
    expect(vod.body).toMatchObject({ field: 'end' });
  });

  it('refuses any overlap with an entry of the same type with 409 naming it, and lets LIVE cut into VOD', async () => {
    const film = { title: 'Film', type: 'VOD', url: vodUrl };
    const first = await entries({ ...film, start: '2030-07-01T10:00:00Z', end: '2030-07-01T11:00:00Z' });
    expect(first.status).toBe(201);
    const firstId = (first.body as { id: string }).id;
    for (const [start, end] of [
      ['2030-07-01T10:30:00Z', '2030-07-01T12:00:00Z'],
      ['2030-07-01T09:00:00Z', '2030-07-01T10:00:01Z'],
      ['2030-07-01T10:10:00Z', '2030-07-01T10:20:00Z'],
      ['2030-07-01T09:00:00Z', '2030-07-01T12:00:00Z'],
    ]) {
      const res = await entries({ ...film, start, end });
      expect(res.status, `${start} to ${end}`).toBe(409);
      expect((res.body as { message: string }).message).toContain(firstId);
    }
    // Touching is not overlapping.
    const next = await entries({ ...film, start: '2030-07-01T11:00:00Z', end: '2030-07-01T11:30:00Z' });
    expect(next.status).toBe(201);
    const match = { ...live, start: '2030-07-01T10:15:00Z', end: '2030-07-01T10:45:00Z' };
    expect((await entries(match)).status).toBe(201);
    expect(
      (await entries({ ...match, start: '2030-07-01T10:40:00Z', end: '2030-07-01T10:50:00Z' })).status,
    ).toBe(409);
  });

  it('answers 404 for an unknown channel', async () => {
    const res = await http(`${gateway.url}/api/v1/channels/nope/schedule`, { method: 'POST', body: live });
    expect(res.status).toBe(404);
  });
});
