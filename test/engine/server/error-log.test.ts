/**
 * Every 5xx the engine answers is logged (path, status, error code): behind CloudFront and the ALB they
 * are what a viewer sees as a stall, and the only record of them on the engine's side. Playlists
 * answered 200 are not logged (thousands a second).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../helpers/engine-fixtures';
import { type CapturedLog, captureLogLines } from '../helpers/log-lines';

let engine: Engine;
let base: string;
let log: CapturedLog;
const streams = new AbortController();

beforeAll(async () => {
  ({ engine, base } = await startNewsEngine(fakeWorld(), {
    sessionEventStream: true,
    eventStreamMaxClients: 1,
    autoCreateSession: true,
    channelManager: {
      getChannels: () => [{ id: 'news', name: 'News' }],
      _onAdd: () => {
        throw new Error('the channel list is broken');
      },
    },
  }));
  log = captureLogLines('info');
});

afterEach(() => {
  log.lines.length = 0;
});

afterAll(async () => {
  log.restore();
  streams.abort();
  await engine.stop();
});

describe('the engine error log', () => {
  it('logs a 503 answer with its path, status and error code', async () => {
    expect((await fetch(`${base}/eventstream/news`, { signal: streams.signal })).status).toBe(200);
    const refused = await fetch(`${base}/eventstream/news?key=not-logged`);
    expect(refused.status).toBe(503);
    expect(log.entries('answered 5xx')).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/eventstream/news',
        status: 503,
        code: 'too_many_event_streams',
      }),
    ]);
    expect(log.lines.join('')).not.toContain('not-logged');
  });

  it('logs an unexpected failure as a 500 with its error', async () => {
    const res = await fetch(`${base}/live/master.m3u8?channel=other`, { redirect: 'manual' });
    expect(res.status).toBe(500);
    expect(log.entries('answered 5xx')).toEqual([
      expect.objectContaining({
        level: 'error',
        path: '/live/master.m3u8',
        status: 500,
        code: 'internal',
        err: expect.objectContaining({ message: 'the channel list is broken' }),
      }),
    ]);
  });

  it('logs no playlist answered 200', async () => {
    expect((await fetch(`${base}/channels/news/master.m3u8`)).status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect(log.lines.join('')).not.toContain('/channels/news/master.m3u8');
  });
});
