/** Small HLS sources written as strings, and an in-memory origin serving them through a fetch function. */
import type { FetchLike } from '../../../core/fetch/bounded-fetch';

export interface MediaOptions {
  /** Segment name prefix (relative URIs: `<prefix><i>.<ext>`). */
  prefix?: string;
  ext?: string;
  /** Lines inserted before segment i (EXT-X-KEY, EXT-X-MAP, EXT-X-DISCONTINUITY, EXT-X-BYTERANGE...). */
  before?: Record<number, string[]>;
  /** Replaces the URI of segment i. */
  uris?: Record<number, string>;
}

export function mediaPlaylist(segmentsMs: number[], o: MediaOptions = {}): string {
  const target = Math.ceil(Math.max(...segmentsMs) / 1000);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:6',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
  ];
  segmentsMs.forEach((ms, i) => {
    lines.push(...(o.before?.[i] ?? []));
    lines.push(`#EXTINF:${(ms / 1000).toFixed(3)},`);
    lines.push(o.uris?.[i] ?? `${o.prefix ?? 'seg'}${i}.${o.ext ?? 'ts'}`);
  });
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

export interface VariantSpec {
  uri: string;
  bandwidth: number;
  width?: number;
  height?: number;
  codecs?: string;
  audio?: string;
  subtitles?: string;
}

export function masterPlaylist(variants: VariantSpec[], media: string[] = []): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', ...media];
  for (const v of variants) {
    const attrs = [`BANDWIDTH=${v.bandwidth}`];
    if (v.width && v.height) attrs.push(`RESOLUTION=${v.width}x${v.height}`);
    attrs.push(`CODECS="${v.codecs ?? 'avc1.64001f,mp4a.40.2'}"`);
    if (v.audio) attrs.push(`AUDIO="${v.audio}"`);
    if (v.subtitles) attrs.push(`SUBTITLES="${v.subtitles}"`);
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, v.uri);
  }
  return `${lines.join('\n')}\n`;
}

export interface SimpleVod {
  /** Master URL. */
  uri: string;
  files: Record<string, string>;
}

/** A VOD at `base` with one variant per entry, all with the same segment durations. */
export function simpleVod(
  base: string,
  segmentsMs: number[],
  ladder: Array<{ bandwidth: number; width: number; height: number }>,
): SimpleVod {
  const files: Record<string, string> = {};
  const variants = ladder.map((l, i) => {
    files[`${base}/v${i}/index.m3u8`] = mediaPlaylist(segmentsMs, { prefix: 's' });
    return { uri: `v${i}/index.m3u8`, ...l };
  });
  files[`${base}/master.m3u8`] = masterPlaylist(variants);
  return { uri: `${base}/master.m3u8`, files };
}

export type Route = string | number | { delayMs: number } | (() => Promise<Response>);

/** An in-memory origin: a string is served as 200, a number as that status; delayMs never answers in time. */
export class FakeOrigin {
  readonly routes = new Map<string, Route>();
  readonly requests: string[] = [];

  add(files: Record<string, string>): this {
    for (const [url, body] of Object.entries(files)) this.routes.set(url, body);
    return this;
  }

  readonly fetch: FetchLike = async (url, init) => {
    this.requests.push(url);
    const route = this.routes.get(url) ?? 404;
    if (typeof route === 'function') return route();
    if (typeof route === 'number') return new Response('error', { status: route });
    if (typeof route === 'object') {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, route.delayMs);
        init?.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
      return new Response('#EXTM3U\n', { status: 200 });
    }
    return new Response(route, { status: 200 });
  };
}
