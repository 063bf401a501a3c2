import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../../engine-container/src/server/request-target';

const parsed = (raw: string) => new URL(raw, 'http://engine.invalid');

describe('a request target', () => {
  it('has the pathname, search and query a parsed URL has, for plain paths and every other kind', () => {
    const targets = [
      '/channels/loop-0/0.m3u8',
      '/channels/news/master.m3u8',
      '/channels/news/audio/aac/en.m3u8',
      '/channels/a.b/v1.m3u8',
      '/channels/news/../other/0.m3u8',
      '/channels/./news/0.m3u8',
      '/channels//news/0.m3u8',
      '/channels/news/0.m3u8?start=2026-11-26T10:00:00Z',
      '/channels/n%C3%A9ws/0.m3u8',
      '/channels/néws/0.m3u8',
      '/channels/news/0.m3u8#frag',
      '/a\\b',
      '/channels/news/...m3u8',
      '/live/master.m3u8?channel=x&filter=',
      '/',
      '',
    ];
    for (const raw of targets) {
      const target = requestTarget(raw);
      const url = parsed(raw);
      expect([target.pathname, target.search, [...target.searchParams]], raw).toEqual([
        url.pathname,
        url.search,
        [...url.searchParams],
      ]);
    }
  });

  it('reads a request without a URL as the root', () => {
    expect(requestTarget(undefined).pathname).toBe('/');
  });
});
