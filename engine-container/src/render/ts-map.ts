/**
 * An EXT-X-MAP for a TS item in a window that also lists fMP4 items. RFC 8216 keeps a map in force
 * until the next one, so the TS segments after an fMP4 item would inherit its init section; hls.js
 * (1.7) does exactly that (its playlist merge even hands the last known map to new map-less segments)
 * and its TS demuxer demuxes that fMP4 init as TS before the segment: "Found N TS packet/s that do
 * not start with 0x47", a fragParsingError that drops the fragment, so nothing plays. A map of the
 * item's own first two TS packets (PAT/PMT, or SDT/PAT) is valid TS the demuxer reads harmlessly, as
 * hls.js does itself for byte-range I-frame playlists. Two packets, never three: a third could be the
 * start of a PES that would then be demuxed twice.
 */
import type { SourceSegment } from '../hls/parse-media';

const TS_PACKETS_BYTES = 2 * 188;

/**
 * Judged by the path's extension: packed audio and WebVTT must never get a TS map. Nor an encrypted
 * segment: its first 376 bytes are no whole AES-128 block run, and the map would be decrypted with it.
 */
const TS_PATH = /\.(ts|m2ts|mts)$/i;

export const isTsSegment = (seg: SourceSegment): boolean =>
  !seg.map && !seg.gap && !seg.keys && TS_PATH.test(seg.uri.replace(/[?#].*$/, ''));

/** The map line for a TS segment whose item starts with `itemFirst` (segment URIs are absolute). */
export const tsMap = (itemFirst: SourceSegment): string =>
  `#EXT-X-MAP:URI="${itemFirst.uri}",BYTERANGE="${TS_PACKETS_BYTES}@${itemFirst.byterange?.offset ?? 0}"`;
