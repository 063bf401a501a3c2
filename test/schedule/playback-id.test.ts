/** Engine channel ids of schedule channels: `<tenantKey>~<id>`, distinct per tenant, reversible. */
import { describe, expect, it } from 'vitest';
import {
  parsePlaybackChannelId,
  playbackChannelId,
  playbackUrl,
  tenantKey,
} from '../../functions/schedule/playback-id';

describe('the engine channel id of a schedule channel', () => {
  it.each(['localhost:8090', '127.0.0.1:8090', '[::1]:8090', 'ta1b2c3', 'schedule.example.com'])(
    'is URL-safe and gives back tenant and id (%s)',
    (tenant) => {
      const id = playbackChannelId(tenant, 'news.v2');
      expect(id).toMatch(/^[A-Za-z0-9_-]+~news\.v2$/);
      expect(encodeURIComponent(id)).toBe(id);
      expect(parsePlaybackChannelId(id)).toEqual({ tenant, id: 'news.v2' });
    },
  );

  it('differs between two tenants with the same channel id', () => {
    expect(playbackChannelId('a.example', 'news')).not.toBe(playbackChannelId('b.example', 'news'));
    expect(playbackChannelId('localhost:8090', 'news')).not.toBe(playbackChannelId('127.0.0.1:8090', 'news'));
  });

  it('is no channel-service id and no malformed id', () => {
    for (const other of ['t1.news', 'news', '~news', `${tenantKey('a')}~`, `${tenantKey('a')}~a/b`, 'a=~x']) {
      expect(parsePlaybackChannelId(other), other).toBeUndefined();
    }
  });

  it('makes the playback URL under PLAYBACK_BASE_URL', () => {
    expect(playbackUrl('https://play.example/', 'ta', 'news')).toBe(
      `https://play.example/channels/${tenantKey('ta')}~news/master.m3u8`,
    );
  });
});
