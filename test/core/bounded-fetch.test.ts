import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, fetchText } from '../../core/fetch/bounded-fetch';
import { BlockedUrlError, type UrlGuard } from '../../core/fetch/url-guard';
import { type FeedServer, startFeedServer } from '../schedule/support/feed-server';

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.close());

describe('fetchText', () => {
  it('returns the body and status of a response within the limits', async () => {
    server.put('/ok', { body: 'hello' });
    const res = await fetchText(`${server.url}/ok`, { timeoutMs: 2000, maxBytes: 100 });
    expect([res.status, res.text]).toEqual([200, 'hello']);
  });

  it('refuses a body above the size bound', async () => {
    server.put('/big', { body: 'x'.repeat(5000) });
    await expect(fetchText(`${server.url}/big`, { timeoutMs: 2000, maxBytes: 4096 })).rejects.toThrow(
      /exceeds the limit/,
    );
  });

  it('refuses a body above the size bound that declares no length', async () => {
    server.put('/big-chunked', { body: 'x'.repeat(5000), chunked: true });
    await expect(fetchText(`${server.url}/big-chunked`, { timeoutMs: 2000, maxBytes: 4096 })).rejects.toThrow(
      /exceeds the limit of 4096 bytes/,
    );
  });

  it('gives up when the server does not answer in time', async () => {
    server.put('/slow', { body: 'late', delayMs: 1500 });
    await expect(fetchText(`${server.url}/slow`, { timeoutMs: 200, maxBytes: 100 })).rejects.toThrow(
      /within 200 ms/,
    );
  });

  it('returns error statuses rather than throwing', async () => {
    expect((await fetchText(`${server.url}/missing`, { timeoutMs: 2000, maxBytes: 100 })).status).toBe(404);
  });

  it('refuses non-http URLs', async () => {
    await expect(fetchText('file:///etc/passwd', { timeoutMs: 2000, maxBytes: 100 })).rejects.toThrow(
      FetchError,
    );
  });

  it('refuses a URL its guard refuses, as a blocked FetchError', async () => {
    server.put('/private', { body: 'secret' });
    const guard: UrlGuard = async (url) => {
      throw new BlockedUrlError(`${url.host} refused`);
    };
    const err = await fetchText(`${server.url}/private`, { timeoutMs: 2000, maxBytes: 100, guard }).catch(
      (e: unknown) => e,
    );
    expect((err as FetchError).code).toBe('blocked');
    expect(server.requestsTo('/private')).toEqual([]);
  });
});
