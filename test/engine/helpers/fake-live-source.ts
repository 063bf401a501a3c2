/**
 * A live HLS source on the fake origin, timed by the test's clock: segment n (of `segmentMs`) ends,
 * and is listed, at startMs + (n + 1) * segmentMs, in a sliding window of `windowSize` segments, for two
 * variants. stop() freezes it (an encoder that died behind a static server); fail(status) answers
 * that status from then on.
 */
import type { FakeOrigin } from './playlists';

export function fakeLiveSource(
  origin: FakeOrigin,
  clock: { now: number },
  o: { base?: string; startMs?: number; segmentMs?: number; windowSize?: number } = {},
) {
  const base = o.base ?? 'https://live.test/cam';
  const startMs = o.startMs ?? clock.now - 60_000;
  const segmentMs = o.segmentMs ?? 2000;
  const windowSize = o.windowSize ?? 8;
  let frozenAt: number | undefined;
  let status: number | undefined;
  const respond = (body: string) => async () =>
    status ? new Response('error', { status }) : new Response(body, { status: 200 });
  const media = (variant: number) => {
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
      lines.push(`#EXTINF:${(segmentMs / 1000).toFixed(3)},`, `v${variant}_${n}.ts`);
    return `${lines.join('\n')}\n`;
  };
  const master = [
    '#EXTM3U',
    '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="avc1.64001f,mp4a.40.2"',
    'v0.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001f,mp4a.40.2"',
    'v1.m3u8',
  ].join('\n');
  origin.routes.set(`${base}/master.m3u8`, respond(master));
  for (const v of [0, 1]) origin.routes.set(`${base}/v${v}.m3u8`, () => respond(media(v))());
  return {
    uri: `${base}/master.m3u8`,
    segmentMs,
    isLive: (uri: string) => uri.startsWith(`${base}/`),
    stop: () => {
      frozenAt = clock.now;
    },
    fail: (s: number) => {
      status = s;
    },
  };
}
