/**
 * An ad delivered as an HLS interstitial (HLS spec, appendix "Interstitials"): an EXT-X-DATERANGE of
 * CLASS "com.apple.hls.interstitial" on the first segment of the item the ad plays before. A player
 * that supports interstitials pauses the channel there, plays the ad from its own playlist
 * (X-ASSET-URI) and resumes the channel where it paused (X-RESUME-OFFSET=0: the ad shifts the content
 * rather than replacing any of it); the viewer may neither skip the ad nor seek past it (X-RESTRICT).
 * A player without interstitial support ignores the tag and plays the content. Attributes in a fixed
 * order and the START-DATE the item's start (its first segment's PDT in every rendition): every
 * rendition and every engine serve the same bytes.
 */
import { quotedSafe } from '../hls/attributes';
import type { PlayoutItem } from '../playout/item';
import { isoDate } from '../util/iso-date';

export const INTERSTITIAL_CLASS = 'com.apple.hls.interstitial';

export const interstitialId = (item: PlayoutItem): string => `interstitial-${item.seq}-${item.startMs}`;

export function interstitialDateRange(item: PlayoutItem): string | undefined {
  const ad = item.interstitial;
  if (!ad) return undefined;
  const attrs = [
    `ID="${interstitialId(item)}"`,
    `CLASS="${INTERSTITIAL_CLASS}"`,
    `START-DATE="${isoDate(item.startMs)}"`,
    `X-ASSET-URI="${quotedSafe(ad.uri)}"`,
    'X-RESUME-OFFSET=0',
    ...(ad.durationMs ? [`X-PLAYOUT-LIMIT=${(ad.durationMs / 1000).toFixed(3)}`] : []),
    'X-RESTRICT="SKIP,JUMP"',
  ];
  return `#EXT-X-DATERANGE:${attrs.join(',')}`;
}
