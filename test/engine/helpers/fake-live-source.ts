/**
 * A live HLS source on the fake origin, timed by the test's clock: segment n (of `segmentMs`) ends,
 * and is listed, at startMs + (n + 1) * segmentMs, in a sliding window of `windowSize` segments, for two
 * variants with muxed audio, or (with `audio`) video-only variants (and an audio-only one) and TYPE=AUDIO renditions whose
 * segments are 20 ms longer and shorter in turn (an AAC frame's worth: they never share the video's
 * boundaries exactly), and (with `subtitles`) TYPE=SUBTITLES WebVTT renditions. stop() freezes it (an
 * encoder that died behind a static server); fail(status) answers that status from then on (fail(undefined) ends it).
 */
import type { FakeOrigin } from './playlists';

export interface FakeLiveOptions {
  base?: string;
  startMs?: number;
  segmentMs?: number;
  windowSize?: number;
  /** Demuxed audio renditions (group `aud`), by language; one may be DEFAULT=YES. */
  audio?: Array<{ language: string; name: string; default?: boolean }>;
  /** WebVTT subtitle renditions (group `subs`), by language. */
  subtitles?: string[];
}

/** Segment n's duration in an audio rendition: segmentMs ± 20 ms in turn (the sum stays on the video's). */
const audioMs = (segmentMs: number, n: number) => segmentMs + (n % 2 === 0 ? 20 : -20);

export function fakeLiveSource(origin: FakeOrigin, clock: { now: number }, o: FakeLiveOptions = {}) {
  const base = o.base ?? 'https://live.test/cam';
  const startMs = o.startMs ?? clock.now - 60_000;
  const segmentMs = o.segmentMs ?? 2000;
  const windowSize = o.windowSize ?? 8;
  let frozenAt: number | undefined;
  let status: number | undefined;
  const respond = (body: string) => async () =>
    status ? new Response('error', { status }) : new Response(body, { status: 200 });
  const media = (name: string, ext: string, durationMs: (n: number) => number) => {
    const now = frozenAt ?? clock.now;
    const produced = Math.floor((now - startMs) / segmentMs);
    const first = Math.max(0, produced - windowSize);
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      `#EXT-X-TARGETDURATION:${Math.ceil(segmentMs / 1000)}`,
      `#EXT-X-MEDIA-SEQUENCE:${first}`,
    ];
    for (let n = first; n < produced; n++)
      lines.push(`#EXTINF:${(durationMs(n) / 1000).toFixed(3)},`, `${name}_${n}.${ext}`);
    return `${lines.join('\n')}\n`;
  };
  const audio = o.audio ?? [];
  const subtitles = o.subtitles ?? [];
  const codecs = audio.length ? 'avc1.64001f' : 'avc1.64001f,mp4a.40.2';
  const groups = `${audio.length ? ',AUDIO="aud"' : ''}${subtitles.length ? ',SUBTITLES="subs"' : ''}`;
  const master = [
    '#EXTM3U',
    ...audio.map(
      (a) =>
        `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="${a.language}",NAME="${a.name}",DEFAULT=${a.default ? 'YES' : 'NO'},URI="a_${a.language}.m3u8"`,
    ),
    ...subtitles.map(
      (l) => `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="${l}",NAME="${l}",URI="s_${l}.m3u8"`,
    ),
    `#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="${codecs}"${groups}`,
    'v0.m3u8',
    `#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="${codecs}"${groups}`,
    'v1.m3u8',
    // Like ffmpeg's HLS muxer, a demuxed source lists its first audio rendition as an audio-only
    // variant too; its bandwidth is the nearest to the channel's first rung: never a video rung's.
    ...(audio.length
      ? [`#EXT-X-STREAM-INF:BANDWIDTH=280000,CODECS="mp4a.40.2",AUDIO="aud"`, `a_${audio[0]!.language}.m3u8`]
      : []),
  ].join('\n');
  const route = (name: string, body: () => string) =>
    origin.routes.set(`${base}/${name}.m3u8`, () => respond(body())());
  origin.routes.set(`${base}/master.m3u8`, respond(master));
  for (const v of [0, 1]) route(`v${v}`, () => media(`v${v}`, 'ts', () => segmentMs));
  for (const a of audio)
    route(`a_${a.language}`, () => media(`a_${a.language}`, 'aac', (n) => audioMs(segmentMs, n)));
  for (const l of subtitles) route(`s_${l}`, () => media(`s_${l}`, 'vtt', () => segmentMs));
  return {
    uri: `${base}/master.m3u8`,
    segmentMs,
    isLive: (uri: string) => uri.startsWith(`${base}/`),
    stop: () => {
      frozenAt = clock.now;
    },
    /** Answers `s` from now on; undefined: answers again. */
    fail: (s: number | undefined) => {
      status = s;
    },
  };
}
