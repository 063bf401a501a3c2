import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { type StaticServer, startStaticServer } from '../support/static-server';

const PLAYLIST = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg_000.ts\n#EXT-X-ENDLIST\n';
let dir: string;
let server: StaticServer;

/** A raw request: fetch() would fold `..` in the path before sending it. */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'static-server-'));
  await mkdir(path.join(dir, 'root', 'vod', 'sub'), { recursive: true });
  await writeFile(path.join(dir, 'secret.txt'), 'top secret');
  await writeFile(path.join(dir, 'root', 'vod', 'index.m3u8'), PLAYLIST);
  for (const name of ['seg_000.ts', 'seg_000.m4s', 'init.mp4', 'sub.vtt', 'sub/deep.ts']) {
    await writeFile(path.join(dir, 'root', 'vod', name), `bytes of ${name}`);
  }
  server = await startStaticServer(path.join(dir, 'root'));
});

afterEach(() => server.clearFaults());

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('static server', () => {
  it.each([
    ['index.m3u8', 'application/vnd.apple.mpegurl'],
    ['seg_000.ts', 'video/mp2t'],
    ['seg_000.m4s', 'video/iso.segment'],
    ['init.mp4', 'video/mp4'],
    ['sub.vtt', 'text/vtt'],
  ])('serves %s with content type %s', async (name, type) => {
    const response = await fetch(`${server.url}/vod/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
    expect(await response.text()).toBe(await readFile(path.join(dir, 'root', 'vod', name), 'utf8'));
  });

  it('answers 404 for a file that does not exist and for a folder', async () => {
    expect((await fetch(`${server.url}/vod/missing.ts`)).status).toBe(404);
    expect((await fetch(`${server.url}/vod/sub`)).status).toBe(404);
  });

  it('answers HEAD with the length and no body', async () => {
    const response = await fetch(`${server.url}/vod/index.m3u8`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(PLAYLIST)));
    expect(await response.text()).toBe('');
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await fetch(`${server.url}/vod/index.m3u8`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it.each([
    '/../secret.txt',
    '/vod/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/vod/..%2f..%2fsecret.txt',
    '/vod%5c..%5c..%5csecret.txt',
  ])('never serves a file outside its root (%s)', async (rawPath) => {
    const { status, body } = await rawGet(server.port, rawPath);
    expect(status).toBe(404);
    expect(body).not.toContain('top secret');
  });

  it('answers an injected 404 or 500 on the paths under a prefix, and only there', async () => {
    server.setFault('/vod/seg_', { kind: 'status', status: 404 });
    server.setFault('/vod/init', { kind: 'status', status: 500 });
    expect((await fetch(`${server.url}/vod/seg_000.ts`)).status).toBe(404);
    expect((await fetch(`${server.url}/vod/init.mp4`)).status).toBe(500);
    expect((await fetch(`${server.url}/vod/index.m3u8`)).status).toBe(200);
  });

  it('applies the longest matching prefix and forgets a fault set to null', async () => {
    server.setFault('/vod/', { kind: 'status', status: 500 });
    server.setFault('/vod/seg_000', { kind: 'status', status: 404 });
    expect((await fetch(`${server.url}/vod/seg_000.ts`)).status).toBe(404);
    expect((await fetch(`${server.url}/vod/index.m3u8`)).status).toBe(500);
    server.setFault('/vod/', null);
    expect((await fetch(`${server.url}/vod/index.m3u8`)).status).toBe(200);
  });

  it('holds a response back long enough to trip a client timeout', async () => {
    server.setFault('/vod/index', { kind: 'delay', ms: 5_000 });
    await expect(
      fetch(`${server.url}/vod/index.m3u8`, { signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
  });

  it('still answers normally after a delay', async () => {
    server.setFault('/vod/index', { kind: 'delay', ms: 50 });
    const response = await fetch(`${server.url}/vod/index.m3u8`);
    expect(await response.text()).toBe(PLAYLIST);
  });

  it('serves a malformed body of the same length that no playlist parser accepts', async () => {
    server.setFault('/vod/index', { kind: 'malformed' });
    const response = await fetch(`${server.url}/vod/index.m3u8`);
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(PLAYLIST)));
    expect(() => parseMediaPlaylist(body)).toThrow();
  });

  it('answers one byte range with 206 and only those bytes, as an origin does for EXT-X-MAP ranges', async () => {
    const response = await fetch(`${server.url}/vod/index.m3u8`, { headers: { range: 'bytes=0-6' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 0-6/${Buffer.byteLength(PLAYLIST)}`);
    expect(await response.text()).toBe(PLAYLIST.slice(0, 7));
  });

  it('records the requests it answered, each with when', async () => {
    const before = Date.now();
    await fetch(`${server.url}/vod/sub/deep.ts?cache=bust`);
    const { atMs, ...request } = server.requests().at(-1)!;
    expect(request).toEqual({ method: 'GET', path: '/vod/sub/deep.ts', status: 200 });
    expect(atMs).toBeGreaterThanOrEqual(before);
    expect(atMs).toBeLessThanOrEqual(Date.now());
  });

  it('closes while a client holds a keep-alive connection open', async () => {
    const other = await startStaticServer(path.join(dir, 'root'));
    await (await fetch(`${other.url}/vod/index.m3u8`)).text();
    await other.close();
    await expect(fetch(`${other.url}/vod/index.m3u8`)).rejects.toThrow();
  });
});
