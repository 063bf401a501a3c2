/**
 * The schedule service's feeds and VOD links go through the guarded fetch (loopback targets only:
 * 127.0.0.2 stands for a public origin). Refused, a feed keeps its last items and its status shows a
 * public code, never the address or the error text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../core/fetch/address-policy';
import { guardedFetch } from '../../core/fetch/guarded-fetch';
import { createLogger } from '../../core/logger';
import type { StoredFeed } from '../../functions/schedule/model';
import { type FeedReaderDeps, readFeed } from '../../functions/schedule/scheduler/feed-reader';
import { cachedDurationResolver, createDurationCache } from '../../functions/schedule/scheduler/vod-duration';
import { atomFeed, mediaPlaylist } from '../schedule/support/feed-server';
import { type LoopbackOrigin, startLoopbackOrigin, treatAsPublic } from './support/loopback-origin';

process.env.LOG_LEVEL ??= 'silent';
const PUBLIC_STAND_IN = '127.0.0.2';
let internal: LoopbackOrigin;
let outside: LoopbackOrigin;

beforeAll(async () => {
  [internal, outside] = await Promise.all([
    startLoopbackOrigin('127.0.0.1'),
    startLoopbackOrigin(PUBLIC_STAND_IN),
  ]);
  internal.put('/vod.m3u8', { body: mediaPlaylist(['6', '4']) });
  internal.put('/feed.xml', { body: atomFeed([{ id: 'e1', title: 'I', link: `${internal.url}/vod.m3u8` }]) });
  outside.put('/vod.m3u8', { body: mediaPlaylist(['6', '6']) });
  outside.put('/feed.xml', {
    body: atomFeed([
      { id: 'e1', title: 'Public', link: `${outside.url}/vod.m3u8` },
      { id: 'e2', title: 'Internal', link: `${internal.url}/vod.m3u8` },
    ]),
  });
});
afterAll(async () => {
  await Promise.all([internal?.close(), outside?.close()]);
});

function deps(allowPrivate: boolean): FeedReaderDeps {
  const fetch = guardedFetch({ allowPrivate, isBlocked: treatAsPublic(PUBLIC_STAND_IN, isBlockedAddress) });
  const options = { timeoutMs: 2000, maxBytes: 1024 * 1024, fetch };
  return {
    fetchOptions: options,
    resolveDuration: cachedDurationResolver(createDurationCache(), options),
    nowMs: 1_700_000_000_000,
    log: createLogger(),
    maxItems: 100,
  };
}

const feedAt = (url: string, state: Partial<StoredFeed> = {}): StoredFeed => ({
  id: 'f',
  tenant: 'host:1',
  url,
  channelId: 'ch',
  config: { scheduleRetention: 24 },
  ...state,
});

describe('schedule feeds in a deployment', () => {
  it('refuses a feed on an internal address, keeps the last items and records only a code', async () => {
    const items = [{ id: 'old', title: 'Old', url: `${outside.url}/vod.m3u8`, durationMs: 12_000 }];
    const before = internal.requests.length;
    const read = await readFeed(feedAt(`${internal.url}/feed.xml`, { items }), deps(false));
    expect(read.outcome).toBe('failed');
    expect(read.state.items).toEqual(items);
    expect(read.state.lastError).toBe('the feed could not be read (unavailable)');
    expect(internal.requests.length).toBe(before);
  });

  it('skips a feed entry whose VOD is on an internal address, without fetching it', async () => {
    const before = internal.requests.length;
    const read = await readFeed(feedAt(`${outside.url}/feed.xml`), deps(false));
    expect(read.state.items?.map((i) => i.title)).toEqual(['Public']);
    expect(internal.requests.length).toBe(before);
  });
});

describe('schedule feeds with private URLs allowed (npm start)', () => {
  it('reads a feed and measures its VODs on loopback', async () => {
    const read = await readFeed(feedAt(`${internal.url}/feed.xml`), deps(true));
    expect(read.outcome).toBe('fetched');
    expect(read.state.items).toEqual([
      { id: 'e1', title: 'I', url: `${internal.url}/vod.m3u8`, durationMs: 10_000 },
    ]);
  });
});
