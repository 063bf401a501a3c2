/**
 * The first audio and video timestamps of an MPEG-TS segment, read from its PES headers. Only the
 * segment's first bytes are needed: a packager writes each stream's first PES within the first
 * packets. Pure: bytes in, 90 kHz timestamps out.
 */

const PACKET = 188;
const SYNC = 0x47;

export interface TsStartTimes {
  audioPts?: number;
  videoPts?: number;
  videoDts?: number;
}

/** A 33-bit PES timestamp at `at` (5 bytes, marker bits between). */
function timestamp(b: Uint8Array, at: number): number {
  return (
    (b[at]! & 0x0e) * 0x20000000 + // bits 32..30, shifted left 29
    (b[at + 1]! << 22) +
    ((b[at + 2]! & 0xfe) << 14) +
    (b[at + 3]! << 7) +
    ((b[at + 4]! & 0xfe) >>> 1)
  );
}

/** PTS (and DTS when present) of the PES header starting at `at`, within `end`. */
function pesTimes(b: Uint8Array, at: number, end: number): { pts: number; dts: number } | undefined {
  if (at + 9 > end || b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1) return undefined;
  const flags = b[at + 7]! >> 6;
  if (flags < 2 || at + 14 > end) return undefined;
  const pts = timestamp(b, at + 9);
  const dts = flags === 3 && at + 19 <= end ? timestamp(b, at + 14) : pts;
  return { pts, dts };
}

/** Where a packet's payload starts, or undefined when it has none. */
function payloadStart(b: Uint8Array, p: number): number | undefined {
  const control = (b[p + 3]! >> 4) & 0x3;
  if (control === 1) return p + 4;
  if (control === 3) return p + 5 + b[p + 4]!;
  return undefined;
}

/** Stream ids 0xC0-0xDF are MPEG audio (AAC, MP3); 0xE0-0xEF are video (H.264, HEVC). */
export function tsStartTimes(bytes: Uint8Array): TsStartTimes {
  const out: TsStartTimes = {};
  for (let p = 0; p + PACKET <= bytes.length; p += PACKET) {
    if (bytes[p] !== SYNC) break;
    if ((bytes[p + 1]! & 0x40) === 0) continue; // not the start of a PES
    const at = payloadStart(bytes, p);
    if (at === undefined || at >= p + PACKET) continue;
    const streamId = bytes[at + 3]!;
    const isAudio = streamId >= 0xc0 && streamId <= 0xdf;
    const isVideo = streamId >= 0xe0 && streamId <= 0xef;
    if ((isAudio && out.audioPts !== undefined) || (isVideo && out.videoPts !== undefined)) continue;
    if (!isAudio && !isVideo) continue;
    const times = pesTimes(bytes, at, p + PACKET);
    if (!times) continue;
    if (isAudio) out.audioPts = times.pts;
    else {
      out.videoPts = times.pts;
      out.videoDts = times.dts;
    }
    if (out.audioPts !== undefined && out.videoPts !== undefined) break;
  }
  return out;
}

/** Above this, a lead is not encoder priming but content (or a broken stream): leave it alone. */
export const MAX_AUDIO_LEAD_MS = 100;

/**
 * How much later than the segment's earliest timestamp its video starts, in ms. hls.js maps the
 * earliest of the first audio PTS and the first video DTS of a TS item to the item's playlist start,
 * so the item lasts that much longer on its timeline than the video's EXTINFs say. 0 when a stream
 * is missing, the video is first, or the lead is not priming-sized.
 */
export function audioLeadMs(times: TsStartTimes): number {
  const { audioPts, videoPts, videoDts } = times;
  if (audioPts === undefined || videoPts === undefined) return 0;
  const earliest = Math.min(audioPts, videoDts ?? videoPts);
  const leadMs = Math.round((videoPts - earliest) / 90);
  return leadMs > 0 && leadMs <= MAX_AUDIO_LEAD_MS ? leadMs : 0;
}
