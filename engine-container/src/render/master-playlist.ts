/**
 * The channel's multivariant playlist, from its fixed output ladder. Variant k is always `<k>.m3u8`,
 * also when a filter hides some variants, so a URL never changes meaning.
 */
import { quotedSafe } from '../hls/attributes';
import { type OutputCaption, type OutputLadder, SUBTITLE_GROUP } from '../ladder/output-ladder';
import type { Channel } from '../types';
import { PLAYLIST_VERSION } from './media-playlist';

export const CC_GROUP = 'cc';

export interface MasterOptions {
  noSessionDataTags: boolean;
  /** Variant indexes to list (default: all). */
  variantIndexes?: readonly number[];
}

const yesNo = (b: boolean | number | undefined): string => (b ? 'YES' : 'NO');

export const audioPath = (groupId: string, language: string): string => `audio/${groupId}/${language}.m3u8`;
export const subtitlePath = (language: string): string => `subs/${language}.m3u8`;

/** A log written before the ladder held its captions: the channel's, as they were rendered then. */
const legacyCaptions = (channel: Channel): OutputCaption[] =>
  (channel.closedCaptions ?? []).map((c) => ({
    language: c.lang,
    name: c.name,
    default: c.default ? 1 : 0,
    autoselect: c.auto ? 1 : 0,
    instreamId: c.id,
  }));

export function renderMasterPlaylist(channel: Channel, ladder: OutputLadder, opts: MasterOptions): string {
  const lines = ['#EXTM3U', `#EXT-X-VERSION:${PLAYLIST_VERSION}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  if (!opts.noSessionDataTags) {
    lines.push(`#EXT-X-SESSION-DATA:DATA-ID="com.onair.channel.id",VALUE="${quotedSafe(channel.id)}"`);
    lines.push(`#EXT-X-SESSION-DATA:DATA-ID="com.onair.channel.name",VALUE="${quotedSafe(channel.name)}"`);
  }
  for (const a of ladder.audio) {
    const channels = a.channels ? `,CHANNELS="${a.channels}"` : '';
    lines.push(
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="${a.groupId}",LANGUAGE="${a.language}",NAME="${quotedSafe(a.name)}",DEFAULT=${yesNo(a.default)},AUTOSELECT=YES${channels},URI="${audioPath(a.groupId, a.language)}"`,
    );
  }
  for (const s of ladder.subtitles) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBTITLE_GROUP}",LANGUAGE="${s.language}",NAME="${quotedSafe(s.name)}",DEFAULT=${yesNo(s.default)},AUTOSELECT=YES,FORCED=NO,URI="${subtitlePath(s.language)}"`,
    );
  }
  const captions = ladder.captions ?? legacyCaptions(channel);
  for (const cc of captions) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="${CC_GROUP}",LANGUAGE="${quotedSafe(cc.language)}",NAME="${quotedSafe(cc.name)}",DEFAULT=${yesNo(cc.default)},AUTOSELECT=${yesNo(cc.autoselect)},INSTREAM-ID="${quotedSafe(cc.instreamId)}"`,
    );
  }
  const indexes = opts.variantIndexes ?? ladder.variants.map((_, i) => i);
  for (const k of indexes) {
    const v = ladder.variants[k]!;
    const attrs = [`BANDWIDTH=${v.bandwidth}`];
    if (v.averageBandwidth) attrs.push(`AVERAGE-BANDWIDTH=${v.averageBandwidth}`);
    if (v.width && v.height) attrs.push(`RESOLUTION=${v.width}x${v.height}`);
    if (v.frameRate) attrs.push(`FRAME-RATE=${v.frameRate.toFixed(3)}`);
    if (v.codecs) attrs.push(`CODECS="${v.codecs}"`);
    if (v.audioGroup) attrs.push(`AUDIO="${v.audioGroup}"`);
    if (ladder.subtitles.length) attrs.push(`SUBTITLES="${SUBTITLE_GROUP}"`);
    attrs.push(captions.length ? `CLOSED-CAPTIONS="${CC_GROUP}"` : 'CLOSED-CAPTIONS=NONE');
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, `${k}.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}
