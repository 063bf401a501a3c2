/** The public form of engine events: fixed texts per error code, no error detail, no URL credentials. */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine-container/src/events';
import { publicEvent } from '../../engine-container/src/server/public-event';

const at = (type: EngineEvent['type'], data: Record<string, unknown>): EngineEvent => ({
  type,
  channelId: 't1.news',
  time: '2024-05-01T12:00:00.000Z',
  data,
});

const INTERNAL = /127\.0\.0\.1|10\.0\.0\.5|169\.254|ECONNREFUSED|private address|returned 500|secret|6379/;

describe('publicEvent', () => {
  it('replaces a VOD error message by the fixed text of its code', () => {
    const event = at('vod_error', {
      message: 'http://user:secret@10.0.0.5:6379/x.m3u8: connect ECONNREFUSED 10.0.0.5:6379',
      code: 'vod_unavailable',
      vod: { id: 'x', uri: 'http://user:secret@10.0.0.5:6379/x.m3u8' },
    });
    expect(publicEvent(event).data).toEqual({
      code: 'vod_unavailable',
      message: 'the VOD could not be loaded (vod_unavailable)',
    });
  });

  it.each([
    ['vod_not_found', 'the VOD could not be loaded (vod_not_found)'],
    ['vod_timeout', 'the VOD could not be loaded (vod_timeout)'],
    ['vod_malformed', 'the VOD could not be loaded (vod_malformed)'],
    ['webhook_unavailable', 'the webhook could not be called (webhook_unavailable)'],
    ['webhook_invalid', 'the webhook answer could not be used (webhook_invalid)'],
  ])('keeps the code %s with its fixed text', (code, message) => {
    expect(publicEvent(at('vod_error', { code, message: 'detail' })).data).toEqual({ code, message });
  });

  it.each([undefined, 'blocked', 'http_error', 'ECONNREFUSED', '__proto__'])(
    'says next_item_unavailable for any other code (%s)',
    (code) => {
      expect(publicEvent(at('vod_error', { code, message: 'returned 500' })).data).toEqual({
        code: 'next_item_unavailable',
        message: "the channel's next item could not be planned (next_item_unavailable)",
      });
    },
  );

  it('replaces a slate reason that is an error message, and strips credentials from its URI', () => {
    const event = at('slate_inserted', {
      reason: 'http://127.0.0.1:8080/x.m3u8 resolves to a private address (127.0.0.1)',
      uri: 'https://op:secret@cdn.example.com/slate/master.m3u8',
      durationMs: 40_000,
    });
    expect(publicEvent(event).data).toEqual({
      reason: 'vod_error',
      uri: 'https://cdn.example.com/slate/master.m3u8',
      durationMs: 40_000,
    });
  });

  it('keeps gap as the reason of a requested gap', () => {
    expect(publicEvent(at('slate_inserted', { reason: 'gap', uri: null, durationMs: 4000 })).data).toEqual({
      reason: 'gap',
      uri: null,
      durationMs: 4000,
    });
  });

  it('shows an item without its error reason or URL credentials', () => {
    const event = at('item_appended', {
      seq: 3,
      kind: 'slate',
      id: 'slate',
      title: 'slate',
      uri: 'https://a:secret@cdn.example.com/slate/master.m3u8',
      startMs: 1000,
      durationMs: 2000,
      reason: 'webhook http://10.0.0.5/next returned 500',
      internal: 'never shown',
    });
    const shown = publicEvent(event);
    expect(shown.data).toMatchObject({ seq: 3, kind: 'slate', reason: 'vod_error' });
    expect(shown.data.uri).toBe('https://cdn.example.com/slate/master.m3u8');
    expect(JSON.stringify(shown)).not.toMatch(INTERNAL);
    expect(shown.data).not.toHaveProperty('internal');
  });

  it('passes channel events through with their own fields only', () => {
    expect(publicEvent(at('channel_reset', { startMs: 5, seq: 9, extra: 1 })).data).toEqual({
      startMs: 5,
      seq: 9,
    });
    expect(publicEvent(at('channel_added', { name: 'News', origin: 'manager' })).data).toEqual({
      name: 'News',
      origin: 'manager',
    });
    expect(publicEvent(at('channel_removed', { anything: 'x' })).data).toEqual({});
  });

  it('keeps the envelope', () => {
    const event = at('channel_removed', {});
    expect(publicEvent(event)).toEqual({ ...event, data: {} });
  });
});
