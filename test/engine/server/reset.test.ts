/**
 * `/reset/<channel>` restarts a channel's playout for every viewer: it needs the reset key, and with no
 * key configured (its secret missing) it is refused, not open. Every call is logged (who and with what
 * outcome) so an operator can tell who reset a channel; the key never is.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../helpers/engine-fixtures';
import { type CapturedLog, captureLogLines } from '../helpers/log-lines';

const world = fakeWorld();
let keyless: { engine: Engine; base: string };
let keyed: { engine: Engine; base: string };
let log: CapturedLog;

beforeAll(async () => {
  keyless = await startNewsEngine(world);
  keyed = await startNewsEngine(world, { sessionResetKey: 'secret' });
  log = captureLogLines('info');
});

afterEach(() => {
  log.lines.length = 0;
});

afterAll(async () => {
  log.restore();
  await keyless.engine.stop();
  await keyed.engine.stop();
});

describe('/reset without a configured key', () => {
  it.each([
    ['GET', '/reset/news'],
    ['POST', '/reset/news'],
    ['POST', '/reset/news?key=anything'],
  ])('refuses %s %s with 403 reset_disabled', async (method, path) => {
    const res = await fetch(`${keyless.base}${path}`, { method, headers: { 'x-reset-key': 'anything' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'reset_disabled' });
  });
});

describe('the reset log', () => {
  it('logs a reset with the caller address, x-forwarded-for, channel and outcome, never the key', async () => {
    const res = await fetch(`${keyed.base}/reset/news`, {
      method: 'POST',
      headers: { 'x-reset-key': 'secret', 'x-forwarded-for': '203.0.113.7, 10.0.0.2' },
    });
    expect(res.status).toBe(200);
    expect(log.entries('reset request')).toEqual([
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        channelId: 'news',
        outcome: 'reset',
        status: 200,
        sourceIp: '127.0.0.1',
        forwardedFor: '203.0.113.7, 10.0.0.2',
      }),
    ]);
    expect(log.lines.join('')).not.toContain('secret');
  });

  it('logs a refused reset with the error code, without the key given in the query', async () => {
    const res = await fetch(`${keyed.base}/reset/news?key=guessed-key`);
    expect(res.status).toBe(403);
    expect(log.entries('reset request')).toEqual([
      expect.objectContaining({
        level: 'warn',
        method: 'GET',
        channelId: 'news',
        outcome: 'invalid_reset_key',
        status: 403,
        sourceIp: '127.0.0.1',
      }),
    ]);
    expect(log.lines.join('')).not.toContain('guessed-key');
  });

  it('logs a reset refused because no key is configured', async () => {
    await fetch(`${keyless.base}/reset/news`, { method: 'POST' });
    expect(log.entries('reset request')).toEqual([
      expect.objectContaining({ channelId: 'news', outcome: 'reset_disabled', status: 403 }),
    ]);
  });

  it('logs a reset of a channel that does not exist', async () => {
    await fetch(`${keyed.base}/reset/nope`, { method: 'POST', headers: { 'x-reset-key': 'secret' } });
    expect(log.entries('reset request')).toEqual([
      expect.objectContaining({ channelId: 'nope', outcome: 'channel_not_found', status: 404 }),
    ]);
  });
});
