/** The WebHook channel contract: what the engine sends, what it accepts, and what it refuses. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWebhook, webhookUrl } from '../../engine-container/host/webhook';
import type { FetchLike } from '../../engine-container/src/index';

let server: Server;
let base: string;
const answers = new Map<string, { status?: number; body: string; delayMs?: number }>();
const seen: string[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url.search);
    const answer = answers.get(url.pathname) ?? { status: 404, body: '' };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

// Answers are expected well within this on a loaded machine; only the timeout case waits it out.
const options = { fetch: globalThis.fetch as FetchLike, timeoutMs: 10_000 };
const answer = (path: string, body: unknown, extra: { status?: number; delayMs?: number } = {}) =>
  answers.set(path, { body: typeof body === 'string' ? body : JSON.stringify(body), ...extra });

describe('the WebHook call', () => {
  it('adds channelId to the webhook URL, keeping its own query', () => {
    expect(webhookUrl('https://hooks.example.com/next?key=1', 'news')).toBe(
      'https://hooks.example.com/next?key=1&channelId=news',
    );
  });

  it('turns an answer into a VodResponse: offset, duration and preroll in milliseconds', async () => {
    answer('/full', {
      id: 'ep-1',
      title: 'Episode 1',
      hlsUrl: 'https://cdn.example.com/ep1/master.m3u8',
      prerollUrl: 'https://ads.example.com/p/master.m3u8',
      prerollDurationMs: 6000,
      desiredOffsetMs: 4000,
      desiredDurationMs: 60000,
    });
    const vod = await callWebhook(`${base}/full`, 'news', options);
    expect(vod).toEqual({
      id: 'ep-1',
      title: 'Episode 1',
      uri: 'https://cdn.example.com/ep1/master.m3u8',
      startOffset: 4000,
      desiredDuration: 60000,
      preroll: { uri: 'https://ads.example.com/p/master.m3u8', durationMs: 6000 },
    });
    expect(seen.at(-1)).toBe('?channelId=news');
  });

  it('passes a preroll delivered as an HLS interstitial on to the engine', async () => {
    answer('/interstitial', {
      id: 'ep-2',
      hlsUrl: 'https://cdn.example.com/ep2/master.m3u8',
      prerollUrl: 'https://ads.example.com/p/master.m3u8',
      prerollDelivery: 'interstitial',
    });
    const vod = await callWebhook(`${base}/interstitial`, 'news', options);
    expect(vod.preroll).toEqual({ uri: 'https://ads.example.com/p/master.m3u8', delivery: 'interstitial' });
  });

  it('accepts a gap with a duration and no VOD', async () => {
    answer('/gap', { id: 'g', type: 'gap', desiredDurationMs: 8000 });
    expect(await callWebhook(`${base}/gap`, 'news', options)).toEqual({
      id: 'g',
      title: '',
      type: 'gap',
      desiredDuration: 8000,
    });
  });

  it.each([
    ['invalid JSON', '{"id": ', 'invalid JSON'],
    ['an answer without hlsUrl', { id: 'x', title: 'x' }, 'hlsUrl'],
    ['a non-http hlsUrl', { id: 'x', hlsUrl: 'ftp://x/y.m3u8' }, 'hlsUrl'],
    ['a gap without duration', { id: 'x', type: 'gap' }, 'desiredDurationMs'],
    ['a negative offset', { id: 'x', hlsUrl: 'https://x/y.m3u8', desiredOffsetMs: -1 }, 'desiredOffsetMs'],
  ])('refuses %s', async (_what, body, mentions) => {
    answer('/bad', body);
    await expect(callWebhook(`${base}/bad`, 'news', options)).rejects.toThrow(mentions);
  });

  it('refuses an error status', async () => {
    answer('/down', { id: 'x' }, { status: 500 });
    await expect(callWebhook(`${base}/down`, 'news', options)).rejects.toThrow('500');
  });

  it('gives up after the timeout', async () => {
    answer('/slow', { id: 'x', hlsUrl: 'https://x/y.m3u8' }, { delayMs: 2000 });
    await expect(callWebhook(`${base}/slow`, 'news', { ...options, timeoutMs: 300 })).rejects.toThrow(
      /300 ms/,
    );
  });

  it('refuses an answer over 64 KiB', async () => {
    answer('/huge', { id: 'x', hlsUrl: 'https://x/y.m3u8', title: 'x'.repeat(70_000) });
    await expect(callWebhook(`${base}/huge`, 'news', options)).rejects.toThrow(/exceeds the limit/);
  });
});
