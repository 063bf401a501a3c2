/**
 * One media shape (core/media-shape.ts) for every channel source: the channel API's `opts`, the
 * schedule service's channels and a WebHook answer accept the same fields, refuse a bad one with a 400
 * (or, for a WebHook, a webhook_invalid error) naming it, and the engine host passes them on.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { isKnownLanguage, type MediaShape } from '../../core/media-shape';
import { parseWith } from '../../core/validation';
import { toEngineChannel } from '../../engine-container/host/channel-table-manager';
import { ScheduleChannelManager } from '../../engine-container/host/schedule/schedule-channel-manager';
import { callWebhook } from '../../engine-container/host/webhook';
import type { FetchLike } from '../../engine-container/src/index';
import { createChannelSchema as channelApiSchema } from '../../functions/channel/channel-schema';
import { createChannelSchema as scheduleSchema } from '../../functions/schedule/api/schemas';

const shape: MediaShape = {
  audioTracks: [
    { language: 'en', name: 'English', default: true },
    { language: 'sv', name: 'Svenska' },
  ],
  subtitleTracks: [{ language: 'pt-BR', name: 'Português' }],
  closedCaptions: [{ lang: 'en', name: 'English CC', id: 'CC1', auto: true }],
  profile: [
    { resolution: [1280, 720], bw: 3_000_000, codecs: 'avc1.64001f,mp4a.40.2' },
    { resolution: [1920, 1080], bw: 8_000_000, codecs: 'avc1.640028,ec-3', channels: '16/JOC' },
  ],
  slate: 'https://cdn.example.com/slate/master.m3u8',
};
const loop = (opts: object) => ({ name: 'news', type: 'Loop', url: 'https://cdn.example.com/a.m3u8', opts });
const scheduled = (extra: object) => ({ id: 'news', title: 'News', ...extra });

/** The field a 400 names. */
function refusedField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return (err.details as { field?: string })?.field;
    throw err;
  }
  return undefined;
}

describe('the media shape of a channel', () => {
  it('is accepted whole by the channel API opts and by a schedule service channel', () => {
    expect(parseWith(channelApiSchema, loop(shape)).opts).toEqual(shape);
    expect(parseWith(scheduleSchema, scheduled(shape))).toMatchObject(shape);
  });

  it.each([
    [{ audioTracks: [{ language: 'xx', name: 'X' }] }, 'audioTracks.0.language'],
    [{ subtitleTracks: [{ language: 'english', name: 'E' }] }, 'subtitleTracks.0.language'],
    [
      {
        audioTracks: [
          { language: 'en', name: 'A' },
          { language: 'EN', name: 'B' },
        ],
      },
      'audioTracks.1',
    ],
    [{ audioTracks: [{ language: 'en' }] }, 'audioTracks.0.name'],
    [{ closedCaptions: [{ lang: 'en', name: 'CC', id: 'CC9' }] }, 'closedCaptions.0.id'],
    [{ profile: [{ resolution: [1280, 720], bw: 3e6, codecs: 'avc1' }] }, 'profile.0.codecs'],
    [
      { profile: [{ resolution: [1280, 720], bw: 3e6, codecs: 'avc1.64001f,ec-3', channels: 'JOC' }] },
      'profile.0.channels',
    ],
    [{ slate: 'ftp://cdn.example.com/slate.m3u8' }, 'slate'],
    [{ audioTracks: [{ language: 'en', name: 'English', codec: 'aac' }] }, 'audioTracks.0.codec'],
  ])('refuses %j with a 400 naming the field', (bad, field) => {
    expect(refusedField(() => parseWith(channelApiSchema, loop(bad)))).toBe(`opts.${field}`);
    expect(refusedField(() => parseWith(scheduleSchema, scheduled(bad)))).toBe(field);
  });

  it('knows languages by their BCP 47 tags', () => {
    expect(['en', 'sv', 'pt-BR', 'zh-Hant', 'fil'].every(isKnownLanguage)).toBe(true);
    expect(['xx', 'english', 'e1', '', 'en_US'].some(isKnownLanguage)).toBe(false);
  });
});

describe('the engine host', () => {
  it('gives a channel API channel its media shape', () => {
    const engineChannel = toEngineChannel({
      id: 't.news',
      tenant: 't',
      name: 'news',
      type: 'Loop',
      url: 'https://cdn.example.com/a.m3u8',
      opts: shape as never,
      createdAt: 0,
    });
    expect(engineChannel).toMatchObject(shape);
  });

  it('gives a schedule service channel its media shape, its own slate over the plug-in slate', async () => {
    const manager = new ScheduleChannelManager({
      watch: { refresh: async () => [{ id: 'news', tenant: 't', title: 'News', ...shape }] },
      log: { warn: () => undefined } as never,
      slate: 'https://plugin.example.com/slate.m3u8',
    });
    const [channel] = await manager.getChannels();
    expect(channel).toMatchObject(shape);
  });

  const answering =
    (body: object): FetchLike =>
    async () =>
      new Response(JSON.stringify(body), { status: 200 });
  const hook = (body: object) =>
    callWebhook('https://hooks.example.com/next', 'news', { fetch: answering(body), timeoutMs: 1000 });

  it('passes the media shape of a WebHook answer to the engine', async () => {
    const { slate: _, ...media } = shape;
    const vod = await hook({ id: 'a', hlsUrl: 'https://cdn.example.com/a.m3u8', ...media });
    expect(vod.media).toEqual(media);
  });

  it('refuses a WebHook answer with an unknown language, naming the field', async () => {
    const bad = {
      id: 'a',
      hlsUrl: 'https://cdn.example.com/a.m3u8',
      audioTracks: [{ language: 'xx', name: 'X' }],
    };
    await expect(hook(bad)).rejects.toMatchObject({
      code: 'webhook_invalid',
      message: expect.stringContaining('audioTracks.0.language'),
    });
  });
});
