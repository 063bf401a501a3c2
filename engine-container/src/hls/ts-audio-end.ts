/**
 * Where the audio of an MPEG-TS segment ends (90 kHz): its last PES's PTS plus the ADTS (AAC) frames
 * that PES carries. A muxer ends a segment's video at the next keyframe but its audio on a whole AAC
 * frame, so a VOD's audio may run past its video. Pure: the segment's bytes in.
 */

const PACKET = 188;
const SYNC = 0x47;
const SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
];
const SAMPLES_PER_FRAME = 1024;

/** ADTS frames in a PES payload, and their sample rate; undefined when it is not ADTS. */
function adtsFrames(payload: Uint8Array): { frames: number; sampleRate: number } | undefined {
  let frames = 0;
  let sampleRate: number | undefined;
  for (let i = 0; i + 7 <= payload.length; frames++) {
    if (payload[i] !== 0xff || (payload[i + 1]! & 0xf6) !== 0xf0) break;
    sampleRate ??= SAMPLE_RATES[(payload[i + 2]! >> 2) & 0x0f];
    const length = ((payload[i + 3]! & 0x03) << 11) | (payload[i + 4]! << 3) | (payload[i + 5]! >> 5);
    if (length < 7) break;
    i += length;
  }
  return sampleRate && frames ? { frames, sampleRate } : undefined;
}

function pesPts(b: Uint8Array, at: number): number | undefined {
  if (b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1 || b[at + 7]! >> 6 < 2) return undefined;
  return (
    (b[at + 9]! & 0x0e) * 0x20000000 +
    (b[at + 10]! << 22) +
    ((b[at + 11]! & 0xfe) << 14) +
    (b[at + 12]! << 7) +
    ((b[at + 13]! & 0xfe) >>> 1)
  );
}

/** The segment's audio end (PTS of its last audio PES plus that PES's frames), or undefined. */
export function tsAudioEnd(bytes: Uint8Array): number | undefined {
  let audioPid: number | undefined;
  let lastPts: number | undefined;
  let parts: Uint8Array[] = [];
  for (let p = 0; p + PACKET <= bytes.length; p += PACKET) {
    if (bytes[p] !== SYNC) break;
    const pid = ((bytes[p + 1]! & 0x1f) << 8) | bytes[p + 2]!;
    const control = (bytes[p + 3]! >> 4) & 0x3;
    const at = control === 1 ? p + 4 : control === 3 ? p + 5 + bytes[p + 4]! : undefined;
    if (at === undefined || at >= p + PACKET) continue;
    const starts = (bytes[p + 1]! & 0x40) !== 0;
    if (starts && audioPid === undefined) {
      const id = bytes[at + 3]!;
      if (id >= 0xc0 && id <= 0xdf) audioPid = pid;
    }
    if (pid !== audioPid) continue;
    if (starts) {
      const pts = pesPts(bytes, at);
      if (pts === undefined) continue;
      lastPts = pts;
      parts = [bytes.subarray(at + 9 + bytes[at + 8]!, p + PACKET)];
    } else if (lastPts !== undefined) parts.push(bytes.subarray(at, p + PACKET));
  }
  if (lastPts === undefined) return undefined;
  const adts = adtsFrames(new Uint8Array(Buffer.concat(parts)));
  if (!adts) return undefined;
  return lastPts + Math.round((adts.frames * SAMPLES_PER_FRAME * 90000) / adts.sampleRate);
}
