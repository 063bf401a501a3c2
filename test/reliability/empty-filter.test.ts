/**
 * An empty `?filter=` on a playback URL gets one answer, whatever was asked before: it is a malformed
 * filter (400 naming `filter`), never the cached unfiltered master.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../engine/helpers/engine-fixtures';

const world = fakeWorld();
let engine: Engine;
let base: string;

beforeAll(async () => {
  ({ engine, base } = await startNewsEngine(world, {
    autoCreateSession: true,
  }));
});

afterAll(async () => {
  await engine.stop();
});

const get = (path: string) => fetch(`${base}${path}`, { redirect: 'manual' });

describe('an empty master playlist filter', () => {
  it('is a 400 naming filter before the unfiltered master was ever served', async () => {
    const res = await get('/channels/news/master.m3u8?filter=');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', field: 'filter' });
  });

  it('is still a 400 once the unfiltered master is cached', async () => {
    expect((await get('/channels/news/master.m3u8')).status).toBe(200);
    expect((await get('/channels/news/master.m3u8')).status).toBe(200);
    const res = await get('/channels/news/master.m3u8?filter=');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'filter' });
  });

  it('is a 400 when only blanks', async () => {
    expect((await get('/channels/news/master.m3u8?filter=%20%20')).status).toBe(400);
  });

  it('is passed on by the session redirect as it was sent', async () => {
    const res = await get('/live/master.m3u8?channel=news&filter=');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/channels/news/master.m3u8?filter=');
  });
});
