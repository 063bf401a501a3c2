/**
 * A live HLS source on the fake origin, timed by the test's clock, whose media playlists are written
 * the way real packagers write them, one shape at a time:
 * - `ts`: ffmpeg's HLS muxer (MPEG-TS, `v0_N.ts`);
 * - `cmaf`: ffmpeg with `-hls_segment_type fmp4` (version 7, `#EXT-X-MAP:URI="init_v0.mp4"`, `.m4s`);
 * - `byterange`: one growing fMP4 file per variant (Apple's mediastreamsegmenter, Unified Streaming):
 *   EXT-X-MAP with a BYTERANGE, each segment an EXT-X-BYTERANGE (the first with its offset, the others
 *   following on);
 * - `aes128`: ffmpeg's `-hls_enc` / key info file (TS, `METHOD=AES-128` with IV, the key rotating
 *   every 5 segments);
 * - `sample-aes`: FairPlay-style fMP4 (`METHOD=SAMPLE-AES`, `KEYFORMAT="com.apple.streamingkeydelivery"`);
 * - `llhls`: Apple's LL-HLS (EXT-X-SERVER-CONTROL, EXT-X-PART-INF, parts of the last segments, the
 *   segment in progress as parts only, EXT-X-PRELOAD-HINT, EXT-X-RENDITION-REPORT);
 * - `cues`: AWS Elemental / MediaPackage ad markers with Unified Streaming's date ranges: a 10 s break
 *   every 40 s (`EXT-X-CUE-OUT:10`, its `EXT-X-DATERANGE ... SCTE35-OUT=0x…`, `EXT-X-CUE-OUT-CONT:
 *   ElapsedTime=…,Duration=10`, `EXT-X-CUE-IN` and the IN date range);
 * - `discontinuity`: an encoder that restarts every 20 s (`EXT-X-DISCONTINUITY`, and
 *   `EXT-X-DISCONTINUITY-SEQUENCE` counting those that left the window).
 * Segment n ends, and is listed, at startMs + (n + 1) * segmentMs, in a window of `windowSize` (6, as
 * `-hls_list_size 6`), and is deleted one segment after it leaves it (`-hls_flags delete_segments`):
 * `exists(uri)` says whether a player fetching it now would get it; stop() freezes the source.
 */
import type { FakeOrigin } from '../engine/helpers/playlists';

export type Shape =
  | 'ts'
  | 'cmaf'
  | 'byterange'
  | 'aes128'
  | 'sample-aes'
  | 'llhls'
  | 'cues'
  | 'discontinuity';

export interface PackagerOptions {
  base?: string;
  segmentMs?: number;
  windowSize?: number;
}

const SEGMENT_BYTES = 150_000;
const INIT_BYTES = 720;
/** A splice_insert, as a real SCTE-35 encoder sends it (event 42, out of network, 10 s). */
export const SOURCE_SCTE35_OUT =
  '0xFC302500000000000000FFF01405000000427FEFFE00DBBA00FE000DBBA0000000000000A1B2C3D4';
export const SOURCE_SCTE35_IN = '0xFC302000000000000000FFF00F05000000427FDFFE00DBBA0000000000000000E5F6A7B8';
const BREAK_EVERY = 20;
const BREAK_SEGMENTS = 5;
const RESTART_EVERY = 10;

export function packagerSource(
  origin: FakeOrigin,
  clock: { now: number },
  shape: Shape,
  o: PackagerOptions = {},
) {
  const base = o.base ?? `https://live.test/${shape}`;
  const segmentMs = o.segmentMs ?? 2000;
  const windowSize = o.windowSize ?? 6;
  const startMs = clock.now - 60_000;
  const tdS = Math.ceil(segmentMs / 1000);
  const s = (ms: number) => (ms / 1000).toFixed(6);
  const fmp4 = shape !== 'ts' && shape !== 'aes128' && shape !== 'discontinuity' && shape !== 'cues';
  let frozenAt: number | undefined;
  const produced = () => Math.floor(((frozenAt ?? clock.now) - startMs) / segmentMs);
  const pdt = (n: number) => new Date(startMs + n * segmentMs).toISOString();
  const segName = (v: string, n: number) => `${v}_${n}.${fmp4 ? 'm4s' : 'ts'}`;

  function segmentLines(v: string, n: number, first: number): string[] {
    const lines: string[] = [];
    if (shape === 'discontinuity' && n > 0 && n % RESTART_EVERY === 0) lines.push('#EXT-X-DISCONTINUITY');
    if (shape === 'aes128' && (n === first || n % 5 === 0))
      lines.push(
        `#EXT-X-KEY:METHOD=AES-128,URI="https://keys.test/key_${Math.floor(n / 5)}.bin",IV=0x${n.toString(16).padStart(32, '0')}`,
      );
    if (shape === 'cues') {
      const k = n % BREAK_EVERY;
      const breakStart = pdt(n - k);
      if (k === 0 && n > 0) {
        lines.push(
          `#EXT-X-DATERANGE:ID="splice-${n}",START-DATE="${breakStart}",PLANNED-DURATION=10,SCTE35-OUT=${SOURCE_SCTE35_OUT}`,
        );
        lines.push('#EXT-X-CUE-OUT:10');
      } else if (k > 0 && k < BREAK_SEGMENTS && n >= BREAK_EVERY)
        lines.push(`#EXT-X-CUE-OUT-CONT:ElapsedTime=${(k * segmentMs) / 1000},Duration=10`);
      else if (k === BREAK_SEGMENTS && n >= BREAK_EVERY) {
        lines.push('#EXT-X-CUE-IN');
        lines.push(
          `#EXT-X-DATERANGE:ID="splice-${n - k}",START-DATE="${breakStart}",DURATION=10,SCTE35-IN=${SOURCE_SCTE35_IN}`,
        );
      }
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${pdt(n)}`);
    if (shape === 'llhls' && n >= produced() - 3)
      for (let p = 0; p < 4; p++)
        lines.push(
          `#EXT-X-PART:DURATION=${s(segmentMs / 4)},URI="${v}_${n}.${p}.m4s"${p === 0 ? ',INDEPENDENT=YES' : ''}`,
        );
    lines.push(`#EXTINF:${s(segmentMs)},`);
    if (shape === 'byterange')
      lines.push(
        `#EXT-X-BYTERANGE:${SEGMENT_BYTES}${n === first ? `@${INIT_BYTES + n * SEGMENT_BYTES}` : ''}`,
      );
    lines.push(shape === 'byterange' ? `${v}.mp4` : segName(v, n));
    return lines;
  }

  function media(v: string): string {
    const last = produced();
    const first = Math.max(0, last - windowSize);
    const discSeq = shape === 'discontinuity' ? Math.floor(Math.max(0, first - 1) / RESTART_EVERY) : 0;
    const lines = [
      '#EXTM3U',
      `#EXT-X-VERSION:${shape === 'llhls' ? 9 : fmp4 ? 7 : 3}`,
      `#EXT-X-TARGETDURATION:${tdS}`,
    ];
    if (shape === 'llhls')
      lines.push(
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5',
        `#EXT-X-PART-INF:PART-TARGET=${s(segmentMs / 4)}`,
      );
    lines.push(`#EXT-X-MEDIA-SEQUENCE:${first}`);
    if (shape === 'discontinuity') lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${discSeq}`);
    if (shape === 'sample-aes')
      lines.push(
        '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://live-key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"',
      );
    if (shape === 'byterange') lines.push(`#EXT-X-MAP:URI="${v}.mp4",BYTERANGE="${INIT_BYTES}@0"`);
    else if (fmp4) lines.push(`#EXT-X-MAP:URI="init_${v}.mp4"`);
    for (let n = first; n < last; n++) lines.push(...segmentLines(v, n, first));
    if (shape === 'llhls') {
      // The segment in progress: two parts so far, and the next one hinted.
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${pdt(last)}`);
      lines.push(`#EXT-X-PART:DURATION=${s(segmentMs / 4)},URI="${v}_${last}.0.m4s",INDEPENDENT=YES`);
      lines.push(`#EXT-X-PART:DURATION=${s(segmentMs / 4)},URI="${v}_${last}.1.m4s"`);
      lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${v}_${last}.2.m4s"`);
      lines.push(
        `#EXT-X-RENDITION-REPORT:URI="${v === 'v0' ? 'v1' : 'v0'}.m3u8",LAST-MSN=${last - 1},LAST-PART=1`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  const codecs = fmp4 ? 'avc1.64001f,mp4a.40.2' : 'avc1.64001f,mp4a.40.2';
  const master = [
    '#EXTM3U',
    `#EXT-X-VERSION:${fmp4 ? 7 : 3}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="${codecs}"`,
    'v0.m3u8',
    `#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="${codecs}"`,
    'v1.m3u8',
  ].join('\n');
  origin.routes.set(`${base}/master.m3u8`, master);
  for (const v of ['v0', 'v1'])
    origin.routes.set(`${base}/${v}.m3u8`, async () => new Response(media(v), { status: 200 }));

  /** Is segment `uri` still on the source's disk (listed, or just left the window)? */
  const exists = (uri: string): boolean => {
    const m = uri.match(/_(\d+)\.(ts|m4s)$/);
    if (!m) return true; // a byte range of the one growing file, an init section, a key
    const n = Number(m[1]);
    return n < produced() && n >= produced() - windowSize - 1;
  };
  return {
    uri: `${base}/master.m3u8`,
    segmentMs,
    isLive: (uri: string) => uri.startsWith(`${base}/`),
    exists,
    /** The encoder dies: the playlist stays as it was. */
    stop: () => {
      frozenAt = clock.now;
    },
  };
}
