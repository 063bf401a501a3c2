/**
 * The engine's public routes under hostile input: no request a client can send gets a 5xx. Every path
 * and query below is sent raw (fetch would normalise `..` and bad escapes).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../engine/helpers/engine-fixtures';

const world = fakeWorld();
let engine: Engine;

beforeAll(async () => {
  ({ engine } = await startNewsEngine(world, {
    sessionResetKey: 'secret',
    sessionEventStream: true,
    autoCreateSession: true,
  }));
});

afterAll(() => engine.stop());

function raw(method: string, path: string, body?: string): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: engine.port, path, method }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? '') });
      res.destroy();
    });
    req.on('error', reject);
    req.end(body);
  });
}

const long = 'x'.repeat(4096);
const hostile = [
  '%',
  '%E0%A4%A',
  '%00',
  'a%00b',
  '%E2%80%AEevil',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  long,
  '%F0%9F%98%80',
  "'%22%3Cscript%3E",
];

const paths = hostile.flatMap((bad) => [
  `/channels/${bad}/master.m3u8`,
  `/channels/news/${bad}.m3u8`,
  `/channels/news/audio/${bad}/${bad}.m3u8`,
  `/channels/news/subs/${bad}.m3u8`,
  `/channels/news/master.m3u8?filter=${bad}`,
  `/live/master.m3u8?channel=${bad}`,
  `/reset/${bad}?key=secret`,
  `/reset/news?key=${bad}`,
  `/eventstream/${bad}`,
  `/vtt/sliceUrl?uri=${bad}`,
  `/${bad}`,
]);

describe('the engine under hostile requests', () => {
  it.each(paths)('answers GET %s without a server error', async (path) => {
    const { status } = await raw('GET', path);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
  });

  it('answers a 1 MB POST to reset without a server error', async () => {
    const { status } = await raw('POST', '/reset/news?key=wrong', 'x'.repeat(1024 * 1024));
    expect(status).toBe(403);
  });

  it('answers unknown methods without a server error', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const { status } = await raw(method, '/channels/news/master.m3u8');
      expect(status).toBeLessThan(500);
    }
  });
});
