/**
 * The WebVTT slicer is no public fetcher: it slices only the whole-file WebVTT of a subtitle rendition
 * of a VOD the engine has loaded, and its errors are one generic message each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../engine-container/src/engine';
import { ORIGIN, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { FakeOrigin, masterPlaylist, mediaPlaylist } from '../engine/helpers/playlists';
import { type LoopbackOrigin, startLoopbackOrigin } from './support/loopback-origin';

const WEBVTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nfirst\n\n00:00:05.000 --> 00:00:06.000\nsecond\n';
const vodUri = `${ORIGIN}/sub/master.m3u8`;
const source = `${ORIGIN}/sub/subs/full.vtt`;
const brokenVodUri = `${ORIGIN}/broken/master.m3u8`;
const brokenSource = `${ORIGIN}/broken/subs/full.vtt`;

function vodWithSubtitles(base: string): Record<string, string> {
  const media = ['#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="en",LANGUAGE="en",URI="subs/en.m3u8"'];
  return {
    [`${base}/master.m3u8`]: masterPlaylist(
      [{ uri: 'v0/index.m3u8', bandwidth: 300_000, subtitles: 'subs' }],
      media,
    ),
    [`${base}/v0/index.m3u8`]: mediaPlaylist([2000, 2000, 2000, 2000]),
    [`${base}/subs/en.m3u8`]: mediaPlaylist([8000], { uris: { 0: 'full.vtt' } }),
  };
}

const origin = new FakeOrigin().add({
  ...vodWithSubtitles(`${ORIGIN}/sub`),
  ...vodWithSubtitles(`${ORIGIN}/broken`),
  [source]: WEBVTT,
});
let engine: Engine;
let internal: LoopbackOrigin;
let base: string;

beforeAll(async () => {
  internal = await startLoopbackOrigin();
  internal.put('/admin', { body: 'internal' });
  engine = new Engine(new ScriptedAssetManager(() => vodResponse(vodUri)), {
    port: 0,
    host: '127.0.0.1',
    fetch: origin.fetch,
    useVTTSubtitles: true,
  });
  await engine.start();
  await engine.core.vods.load(vodUri);
  await engine.core.vods.load(brokenVodUri);
  base = `http://127.0.0.1:${engine.port}/vtt/sliceUrl`;
});
afterAll(async () => {
  await engine?.stop();
  await internal?.close();
});

const slice = (uri: string, startMs = 4000, endMs = 6000) =>
  fetch(`${base}?uri=${encodeURIComponent(uri)}&startMs=${startMs}&endMs=${endMs}`);

describe('the WebVTT slicer', () => {
  it('slices the subtitle source of a loaded VOD', async () => {
    const res = await slice(source);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nsecond\n\n');
  });

  it('answers 404 for any other URL, without fetching it', async () => {
    const before = internal.requests.length;
    const res = await slice(`${internal.url}/admin`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'subtitle_not_found', message: 'no such subtitle source' });
    expect(internal.requests.length).toBe(before);
  });

  it('answers one generic 502 when a known source cannot be loaded, naming neither URL nor cause', async () => {
    const res = await slice(brokenSource);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      code: 'subtitle_unavailable',
      message: 'the subtitle source could not be loaded',
    });
  });
});
