/**
 * Tags that decorate a segment because of the item it belongs to: ad markers around prerolls
 * (CUE-OUT / CUE-OUT-CONT / CUE-IN plus EXT-X-DATERANGE with SCTE35-OUT / SCTE35-IN) and the
 * item's timedMetadata and the interstitial ad played before it (interstitial.ts) as EXT-X-DATERANGEs
 * on its first segment.
 */
import { quotedSafe } from '../hls/attributes';
import type { PlayoutItem } from '../playout/item';
import type { WindowSegment } from '../playout/window';
import { isoDate } from '../util/iso-date';
import { interstitialDateRange } from './interstitial';
import { liveCueTags } from './live-cue-tags';
import { scte35SpliceInsert } from './scte35';

export { isoDate };
export const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const adId = (preroll: PlayoutItem): string => `preroll-${preroll.seq}-${preroll.startMs}`;
const RESERVED = new Set([
  'ID',
  'CLASS',
  'START-DATE',
  'END-DATE',
  'DURATION',
  'PLANNED-DURATION',
  'END-ON-NEXT',
]);
const NUMERIC = new Set(['DURATION', 'PLANNED-DURATION']);

export function timedMetadataDateRange(item: PlayoutItem): string | undefined {
  if (!item.timedMetadata) return undefined;
  const values = new Map<string, string | number>([
    ['ID', `${item.id}-${item.seq}`],
    ['START-DATE', isoDate(item.startMs)],
    ['DURATION', seconds(item.durationMs)],
  ]);
  // Sorted: an item read back from the shared log may list its keys in another order than the one its
  // writer holds (DynamoDB maps keep none), and every engine must serve the same bytes.
  const entries = Object.entries(item.timedMetadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [rawKey, value] of entries) {
    const upper = rawKey.toUpperCase().replace(/[^A-Z0-9-]/g, '-');
    const name = RESERVED.has(upper) || upper.startsWith('X-') ? upper : `X-${upper}`;
    values.set(name, value);
  }
  const attrs = [...values].map(([name, value]) =>
    NUMERIC.has(name) || (typeof value === 'number' && name.startsWith('X-'))
      ? `${name}=${Number(value)}`
      : `${name}="${quotedSafe(String(value))}"`,
  );
  return `#EXT-X-DATERANGE:${attrs.join(',')}`;
}

/** Tags before the segment's EXTINF, after its EXT-X-PROGRAM-DATE-TIME. */
export function segmentDecorations(s: WindowSegment): string[] {
  const out: string[] = [];
  const { item, previousItem } = s;
  if (s.position === 0 && previousItem?.kind === 'preroll' && item.kind !== 'preroll') {
    const id = adId(previousItem);
    const scte = scte35SpliceInsert(previousItem.seq, false);
    out.push('#EXT-X-CUE-IN');
    out.push(
      `#EXT-X-DATERANGE:ID="${id}",START-DATE="${isoDate(previousItem.startMs)}",DURATION=${seconds(previousItem.durationMs)},SCTE35-IN=${scte}`,
    );
  }
  if (item.kind === 'preroll') {
    if (s.position === 0) {
      const scte = scte35SpliceInsert(item.seq, true, item.durationMs);
      out.push(
        `#EXT-X-DATERANGE:ID="${adId(item)}",START-DATE="${isoDate(item.startMs)}",PLANNED-DURATION=${seconds(item.durationMs)},SCTE35-OUT=${scte}`,
      );
      out.push(`#EXT-X-CUE-OUT:DURATION=${seconds(item.durationMs)}`);
    } else {
      out.push(
        `#EXT-X-CUE-OUT-CONT:ElapsedTime=${seconds(s.pdtMs - item.startMs)},Duration=${seconds(item.durationMs)}`,
      );
    }
  }
  if (s.position === 0) {
    const daterange = timedMetadataDateRange(item);
    if (daterange) out.push(daterange);
    const interstitial = interstitialDateRange(item);
    if (interstitial) out.push(interstitial);
  }
  out.push(...liveCueTags(s));
  return out;
}
