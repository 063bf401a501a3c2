/**
 * The synthetic gap: what plays when neither the VOD nor a slate can be loaded. It still advances
 * time (the channel's clock never stops) with EXT-X-GAP segments that players skip without fetching.
 * One hour of equal segments, so a long gap repeats (and adds a discontinuity) at most hourly.
 */
import type { SourceSegment } from '../hls/parse-media';
import type { ParsedVod } from './parsed-vod';
import { buildTrack } from './track';

const GAP_PREFIX = 'gap:';
const GAP_SPAN_MS = 3_600_000;

export const gapUri = (segmentMs: number): string => `${GAP_PREFIX}${segmentMs}`;
export const isGapUri = (uri: string): boolean => uri.startsWith(GAP_PREFIX);

export function syntheticGapVod(uri: string): ParsedVod {
  const segmentMs = Number(uri.slice(GAP_PREFIX.length));
  if (!Number.isInteger(segmentMs) || segmentMs <= 0) throw new Error(`bad gap URI ${uri}`);
  // Distinct URIs: a URI seen twice in one discontinuity sequence would look like a moved segment.
  const segments: SourceSegment[] = Array.from({ length: Math.ceil(GAP_SPAN_MS / segmentMs) }, (_, i) => ({
    uri: `gap.ts?n=${i}`,
    durationMs: segmentMs,
    discontinuity: false,
    gap: true,
  }));
  const track = buildTrack(segments);
  return {
    uri,
    variants: [{ uri, bandwidth: 1, track }],
    audio: [],
    subtitles: [],
    maxSegmentMs: segmentMs,
    gap: true,
    derived: new Map(),
  };
}
