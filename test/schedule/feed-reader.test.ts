import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger';
import type { StoredFeed } from '../../functions/schedule/model';
import { type FeedReaderDeps, readFeed } from '../../functions/schedule/scheduler/feed-reader';
import { cachedDurationResolver, createDurationCache } from '../../functions/schedule/scheduler/vod-duration';
import {
  atomFeed,
  type FeedServer,
  masterPlaylist,
  mediaPlaylist,
  startFeedServer,
} from './support/feed-server';

process.env.LOG_LEVEL ??= 'silent';

let server: FeedServer;
let n = 0;
let base: string;

beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  base = `/t${++n}`;
});

const limits = { timeoutMs: 2000, maxBytes: 1024 * 1024 };
const deps = (): FeedReaderDeps => ({
  fetchOptions: limits,
  resolveDuration: cachedDurationResolver(createDurationCache(), limits),
  nowMs: 1_700_000_000_000,
  log: createLogger(),
  maxItems: 100,
});

const feedAt = (path: string, state: Partial<StoredFeed> = {}): StoredFeed => ({
  id: 'f',
  tenant: 'host:1',
  url: `${server.url}${path}`,
  channelId: 'ch',
  config: { scheduleRetention: 24 },
  ...state,
});

/** A master at `<base>/<name>/master.m3u8` whose first variant has the given EXTINFs. */
function vod(name: string, durations: string[]): string {
  server.put(`${base}/${name}/master.m3u8`, { body: masterPlaylist(['v0/index.m3u8', 'v1/index.m3u8']) });
  server.put(`${base}/${name}/v0/index.m3u8`, { body: mediaPlaylist(durations) });
  server.put(`${base}/${name}/v1/index.m3u8`, { body: mediaPlaylist(['99']) });
  return `${server.url}${base}/${name}/master.m3u8`;
}

describe('readFeed', () => {
  it('measures each entry as the sum of EXTINF of the first variant, exact to the millisecond', async () => {
    const a = vod('a', Array(10).fill('2.002'));
    const b = vod('b', ['4.004', '4.004', '1.001']);
    server.put(`${base}/feed.xml`, {
      body: atomFeed([
        { id: 'e1', title: 'A', link: a },
        { id: 'e2', title: 'B', link: b },
      ]),
    });
    const read = await readFeed(feedAt(`${base}/feed.xml`), deps());
    expect(read.outcome).toBe('fetched');
    expect(read.state.items).toEqual([
      { id: 'e1', title: 'A', url: a, durationMs: 20_020 },
      { id: 'e2', title: 'B', url: b, durationMs: 9_009 },
    ]);
  });

  it('skips entries whose VOD does not load and keeps the others', async () => {
    const a = vod('a', ['6']);
    server.put(`${base}/broken/master.m3u8`, { body: 'this is not a playlist' });
    server.put(`${base}/feed.xml`, {
      body: atomFeed([
        { id: 'e1', title: 'Missing', link: `${server.url}${base}/nope/master.m3u8` },
        { id: 'e2', title: 'Broken', link: `${server.url}${base}/broken/master.m3u8` },
        { id: 'e3', title: 'A', link: a },
      ]),
    });
    const read = await readFeed(feedAt(`${base}/feed.xml`), deps());
    expect(read.state.items?.map((i) => i.title)).toEqual(['A']);
  });

  it('stores the validators and sends them back; a 304 reuses the stored items without fetching playlists', async () => {
    const a = vod('a', ['6']);
    server.put(`${base}/feed.xml`, { body: atomFeed([{ id: 'e1', title: 'A', link: a }]), etag: '"v1"' });
    const first = await readFeed(feedAt(`${base}/feed.xml`), deps());
    expect(first.state.etag).toBe('"v1"');

    const playlistRequests = server.requests.filter((r) => r.path.endsWith('.m3u8')).length;
    const second = await readFeed(feedAt(`${base}/feed.xml`, first.state), deps());
    expect(second.outcome).toBe('not-modified');
    expect(second.state.items).toEqual(first.state.items);
    expect(server.requestsTo(`${base}/feed.xml`).at(-1)).toMatchObject({
      status: 304,
      headers: { 'if-none-match': '"v1"' },
    });
    expect(server.requests.filter((r) => r.path.endsWith('.m3u8')).length).toBe(playlistRequests);
  });

  it('uses Last-Modified when the origin gives no ETag', async () => {
    const a = vod('a', ['6']);
    const lastModified = 'Wed, 01 May 2024 12:00:00 GMT';
    server.put(`${base}/feed.xml`, { body: atomFeed([{ id: 'e1', title: 'A', link: a }]), lastModified });
    const first = await readFeed(feedAt(`${base}/feed.xml`), deps());
    const second = await readFeed(feedAt(`${base}/feed.xml`, first.state), deps());
    expect(second.outcome).toBe('not-modified');
    expect(server.requestsTo(`${base}/feed.xml`).at(-1)!.headers['if-modified-since']).toBe(lastModified);
  });

  it('sends no validators when no items are stored (a 304 would leave nothing to schedule)', async () => {
    server.put(`${base}/feed.xml`, { body: atomFeed([]), etag: '"v1"' });
    await readFeed(feedAt(`${base}/feed.xml`, { etag: '"v1"' }), deps());
    expect(server.requestsTo(`${base}/feed.xml`).at(-1)!.headers['if-none-match']).toBeUndefined();
  });

  it('keeps the last good items and records the error when the feed cannot be read', async () => {
    const items = [{ id: 'e1', title: 'A', url: 'http://cdn/a.m3u8', durationMs: 6000 }];
    server.put(`${base}/feed.xml`, { body: 'oops', status: 500 });
    const read = await readFeed(feedAt(`${base}/feed.xml`, { items, etag: '"v0"' }), deps());
    expect(read.outcome).toBe('failed');
    expect(read.state.items).toEqual(items);
    expect(read.state.etag).toBe('"v0"');
    expect(read.state.lastError).toBe('the feed could not be read (http_error)');
  });

  it('refuses a feed above the size bound', async () => {
    server.put(`${base}/feed.xml`, { body: atomFeed([]).padEnd(5000, ' ') });
    const read = await readFeed(feedAt(`${base}/feed.xml`), {
      ...deps(),
      fetchOptions: { timeoutMs: 2000, maxBytes: 2048 },
    });
    expect(read.outcome).toBe('failed');
    expect(read.state.lastError).toBe('the feed could not be read (too_large)');
  });

  it('measures a VOD once per URL across reads (durations are cached)', async () => {
    const a = vod('a', ['6']);
    server.put(`${base}/feed.xml`, {
      body: atomFeed([
        { id: 'e1', title: 'A', link: a },
        { id: 'e2', title: 'A again', link: a },
      ]),
    });
    const shared = deps();
    await readFeed(feedAt(`${base}/feed.xml`), shared);
    await readFeed(feedAt(`${base}/feed.xml`), shared);
    expect(server.requestsTo(`${base}/a/v0/index.m3u8`)).toHaveLength(1);
  });
});
