/** MPEG-TS packets written byte by byte: PES headers with the timestamps a test needs. */

/** A PES timestamp's 5 bytes: 4-bit prefix, 33 bits split 3/15/15 with marker bits. */
function timestampBytes(prefix: number, t: number): number[] {
  const high = Math.floor(t / 2 ** 30);
  const mid = Math.floor(t / 2 ** 15) % 2 ** 15;
  const low = t % 2 ** 15;
  return [
    (prefix << 4) | (high << 1) | 1,
    mid >> 7,
    ((mid & 0x7f) << 1) | 1,
    low >> 7,
    ((low & 0x7f) << 1) | 1,
  ];
}

/** One 188-byte TS packet starting a PES of `streamId` with a PTS (and a DTS when given). */
export function pesPacket(pid: number, streamId: number, pts: number, dts?: number): Uint8Array {
  const flags = dts === undefined ? 0x80 : 0xc0;
  const times =
    dts === undefined ? timestampBytes(2, pts) : [...timestampBytes(3, pts), ...timestampBytes(1, dts)];
  const pes = [0, 0, 1, streamId, 0, 0, 0x80, flags, times.length, ...times];
  const packet = new Uint8Array(188).fill(0xff);
  packet.set([0x47, 0x40 | (pid >> 8), pid & 0xff, 0x10, ...pes]);
  return packet;
}

/** A packet continuing a PES (no header): its payload must not be read as one. */
export function continuation(pid: number): Uint8Array {
  const packet = new Uint8Array(188).fill(0);
  packet.set([0x47, pid >> 8, pid & 0xff, 0x10, 0, 0, 1, 0xc0]);
  return packet;
}

export const join = (...packets: Uint8Array[]) => new Uint8Array(Buffer.concat(packets));

/** The first bytes of a muxed TS segment whose audio starts `leadTicks` (90 kHz) before its video. */
export function primedSegment(leadTicks: number): Uint8Array {
  return join(pesPacket(256, 0xe0, 127_920), continuation(256), pesPacket(257, 0xc0, 127_920 - leadTicks));
}

/** A packet starting an audio PES at `pts` that carries `frames` ADTS frames (AAC, 48 kHz: 1920 ticks each). */
export function adtsPesPacket(pid: number, pts: number, frames: number): Uint8Array {
  const frameLength = 16;
  const adts = [
    0xff,
    0xf1,
    (1 << 6) | (3 << 2),
    0x80 | (frameLength >> 11),
    (frameLength >> 3) & 0xff,
    (frameLength & 7) << 5,
    0xfc,
  ];
  const frame = [...adts, ...new Array(frameLength - adts.length).fill(0)];
  const packet = pesPacket(pid, 0xc0, pts);
  packet.set(Array.from({ length: frames }, () => frame).flat(), 4 + 14);
  return packet;
}
