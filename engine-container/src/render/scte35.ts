/**
 * A minimal SCTE-35 splice_info_section carrying a splice_insert (immediate, program-level), as the
 * hex the EXT-X-DATERANGE SCTE35-OUT / SCTE35-IN attributes want. Out-of-network with a break
 * duration for OUT; back-to-network for IN. CRC is MPEG-2 CRC-32, so decoders accept it.
 */
class BitWriter {
  private readonly bits: number[] = [];
  put(value: number, width: number): void {
    for (let b = width - 1; b >= 0; b--) this.bits.push(Math.floor(value / 2 ** b) % 2);
  }
  bytes(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.bits.length; i += 8)
      out.push(this.bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    return out;
  }
}

export function crc32Mpeg2(bytes: readonly number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

function spliceInsert(eventId: number, out: boolean, durationMs?: number): number[] {
  const w = new BitWriter();
  w.put(eventId >>> 0, 32);
  w.put(0, 1); // splice_event_cancel_indicator
  w.put(0x7f, 7);
  w.put(out ? 1 : 0, 1); // out_of_network_indicator
  w.put(1, 1); // program_splice_flag
  w.put(durationMs === undefined ? 0 : 1, 1); // duration_flag
  w.put(1, 1); // splice_immediate_flag
  w.put(0xf, 4);
  if (durationMs !== undefined) {
    w.put(1, 1); // auto_return
    w.put(0x3f, 6);
    w.put(Math.round(durationMs * 90), 33); // 90 kHz ticks
  }
  w.put(0, 16); // unique_program_id
  w.put(0, 8); // avail_num
  w.put(0, 8); // avails_expected
  return w.bytes();
}

/** Hex (0x...) of a splice_info_section with one splice_insert. */
export function scte35SpliceInsert(eventId: number, out: boolean, durationMs?: number): string {
  const command = spliceInsert(eventId, out, durationMs);
  const afterLength = new BitWriter();
  afterLength.put(0, 8); // protocol_version
  afterLength.put(0, 1); // encrypted_packet
  afterLength.put(0, 6); // encryption_algorithm
  afterLength.put(0, 33); // pts_adjustment
  afterLength.put(0, 8); // cw_index
  afterLength.put(0xfff, 12); // tier
  afterLength.put(command.length, 12); // splice_command_length
  afterLength.put(0x05, 8); // splice_command_type: splice_insert
  const body = [...afterLength.bytes(), ...command, 0, 0]; // + descriptor_loop_length 0
  const head = new BitWriter();
  head.put(0xfc, 8); // table_id
  head.put(0, 1); // section_syntax_indicator
  head.put(0, 1); // private_indicator
  head.put(3, 2); // sap_type: not specified
  head.put(body.length + 4, 12); // section_length (includes the CRC)
  const section = [...head.bytes(), ...body];
  const crc = crc32Mpeg2(section);
  const all = [...section, crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff];
  return `0x${all
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}
