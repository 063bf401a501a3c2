import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMaxAgeS } from '../../engine-container/src/channel/channel-playlists';
import { Engine } from '../../engine-container/src/engine';
import { fakeWorld, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';

const world = fakeWorld();
const staticDir = mkdtempSync(join(tmpdir(), 'engine-static-'));
writeFileSync(join(staticDir, 'index.html'), '<h1>onair</h1>');

let engine: Engine;
let base: string;

beforeAll(async () => {
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  engine = new Engine(am, {
    port: 0,
    host: '127.0.0.1',
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    channelManager: { getChannels: () => [{ id: 'news', name: 'News' }] },
    sessionResetKey: 'secret',
    sessionEventStream: true,
    autoCreateSession: true,
    staticDirectory: staticDir,
  });
  await engine.start();
  base = `http://127.0.0.1:${engine.port}`;
});

afterAll(async () => {
  await engine.stop();
});

const get = (path: string, init?: RequestInit) => fetch(`${base}${path}`, { redirect: 'manual', ...init });

/** A request with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: engine.port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('the engine over HTTP', () => {
  it('serves the master playlist with the HLS content type, CORS and cache-control', async () => {
    const res = await get('/channels/news/master.m3u8');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=4');
    const text = await res.text();
    expect(text.match(/#EXT-X-STREAM-INF/g)).toHaveLength(2);
    expect(text).toContain('\n0.m3u8\n');
  });

  it('serves a live media playlist per variant', async () => {
    const res = await get('/channels/news/1.m3u8');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/#EXT-X-MEDIA-SEQUENCE:\d+/);
    expect(text).toContain('https://origin.test/a/v1/s');
    expect(text).not.toContain('#EXT-X-ENDLIST');
  });

  it('lets a media playlist be cached at most half its target duration, so no reload gets an old window', async () => {
    const res = await get('/channels/news/0.m3u8');
    const targetDurationS = Number((await res.text()).match(/#EXT-X-TARGETDURATION:(\d+)/)?.[1]);
    const maxAgeS = Number(res.headers.get('cache-control')?.match(/^public, max-age=(\d+)$/)?.[1]);
    expect(maxAgeS * 2).toBeLessThanOrEqual(targetDurationS);
  });

  it('answers a media playlist from its cache with the headers and length of a fresh one, HEAD without the body', async () => {
    for (let n = 0; n < 3; n++) {
      const res = await get('/channels/news/0.m3u8');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(bytes.toString()).toMatch(/^#EXTM3U\n/);
    }
    const head = await get('/channels/news/0.m3u8', { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('caches media playlists for cacheTTL when that is below half the target duration', () => {
    expect(mediaMaxAgeS(4, 10)).toBe(4);
    expect(mediaMaxAgeS(4, 6)).toBe(3);
    expect(mediaMaxAgeS(4, 2)).toBe(1);
    expect(mediaMaxAgeS(4, 1)).toBe(0);
  });

  it('filters the master playlist and answers 400 JSON on a malformed or empty filter', async () => {
    const filtered = await (
      await get(`/channels/news/master.m3u8?filter=${encodeURIComponent('(type=="video"ANDheight>200)')}`)
    ).text();
    expect(filtered.match(/#EXT-X-STREAM-INF/g)).toHaveLength(1);
    expect(filtered).toContain('\n1.m3u8\n');
    const bad = await get(`/channels/news/master.m3u8?filter=${encodeURIComponent('height>200')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'bad_request', field: 'filter' });
    const none = await get(
      `/channels/news/master.m3u8?filter=${encodeURIComponent('(type=="video"ANDheight>4000)')}`,
    );
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ code: 'filter_matches_nothing' });
  });

  it('answers JSON 404 for an unknown channel and an unknown rendition', async () => {
    const res = await get('/channels/nope/0.m3u8');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no channel "nope"', code: 'channel_not_found' });
    expect((await get('/channels/news/7.m3u8')).status).toBe(404);
  });

  it('answers the heartbeat', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers CORS preflight requests', async () => {
    const res = await get('/channels/news/master.m3u8', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('refuses a reset without the right key, and resets with it', async () => {
    expect((await get('/reset/news')).status).toBe(403);
    const wrong = await get('/reset/news?key=guess', { method: 'POST' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'invalid_reset_key' });
    const ok = await get('/reset/news?key=secret', { method: 'POST' });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { channelId: string; resetAtMs: number };
    expect(body.channelId).toBe('news');
    expect(body.resetAtMs).toBeGreaterThanOrEqual(Date.now() - 1000);
  });

  it('resets with the key in the x-reset-key header', async () => {
    const res = await get('/reset/news', { method: 'POST', headers: { 'x-reset-key': 'secret' } });
    expect(res.status).toBe(200);
  });

  it('refuses a reset key that is only the start of the right one', async () => {
    const res = await get('/reset/news', { method: 'POST', headers: { 'x-reset-key': 'secre' } });
    expect(res.status).toBe(403);
  });

  it('streams channel events', async () => {
    const abort = new AbortController();
    const res = await get('/eventstream/news', { signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    await get('/reset/news?key=secret');
    let text = '';
    while (!text.includes('event: channel_reset'))
      text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    expect(text).toMatch(/data: \{"type":"channel_reset","channelId":"news"/);
  });

  it('creates a channel on demand with autoCreateSession', async () => {
    const res = await get('/live/master.m3u8?channel=pop-up');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/channels/pop-up/master.m3u8');
    expect((await get('/channels/pop-up/master.m3u8')).status).toBe(200);
  });

  it('serves valid WebVTT from the dummy endpoint', async () => {
    expect(await (await get('/vtt/dummyUrl?startMs=0&durationMs=2000')).text()).toBe('WEBVTT\n\n');
  });

  it('slices no URI that is not a subtitle source of a loaded VOD (test/security/vtt-slicer.test.ts)', async () => {
    expect((await get('/vtt/sliceUrl?uri=file:///etc/passwd&startMs=0&endMs=1')).status).toBe(404);
    expect((await get('/vtt/sliceUrl?uri=x&startMs=1&endMs=0')).status).toBe(400);
  });

  it('serves the static directory without path traversal', async () => {
    expect(await (await get('/')).text()).toBe('<h1>onair</h1>');
    expect(await rawGet('/../../../etc/passwd')).toBe(404);
    expect(await rawGet('/%2e%2e/%2e%2e/etc/passwd')).toBe(404);
  });

  it('answers one byte range of a static file with 206, as a TS item’s EXT-X-MAP asks of the slate', async () => {
    const res = await get('/index.html', { headers: { range: 'bytes=4-8' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 4-8/14');
    expect(await res.text()).toBe('onair');
    const tail = await get('/index.html', { headers: { range: 'bytes=-5' } });
    expect([tail.status, await tail.text()]).toEqual([206, 'onair</h1>'.slice(-5)]);
  });

  it('refuses a range past the end of a static file with 416 and answers several ranges whole', async () => {
    const past = await get('/index.html', { headers: { range: 'bytes=14-' } });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */14']);
    const several = await get('/index.html', { headers: { range: 'bytes=0-1,4-8' } });
    expect([several.status, await several.text()]).toEqual([200, '<h1>onair</h1>']);
  });
});
