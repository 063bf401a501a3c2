/**
 * Multivariant (master) playlist parser: the variants and the EXT-X-MEDIA renditions we can play out.
 * URIs come out absolute (resolved against the playlist's own URL). I-frame playlists are ignored.
 */
import { type AttributeList, attr, numberAttr, parseAttributes, resolveUri } from './attributes';

export interface MasterVariant {
  uri: string;
  bandwidth: number;
  averageBandwidth?: number;
  resolution?: { width: number; height: number };
  codecs?: string;
  frameRate?: number;
  audioGroup?: string;
  subtitleGroup?: string;
}

export interface MasterMedia {
  type: 'AUDIO' | 'SUBTITLES' | 'CLOSED-CAPTIONS' | 'VIDEO';
  groupId: string;
  name: string;
  language?: string;
  default: boolean;
  autoselect: boolean;
  channels?: string;
  /** CLOSED-CAPTIONS only: which in-band service (CC1..CC4, SERVICE1..SERVICE63). */
  instreamId?: string;
  /** Absent for closed captions and for audio carried in the variant itself. */
  uri?: string;
}

export interface MasterPlaylist {
  variants: MasterVariant[];
  media: MasterMedia[];
}

export class PlaylistError extends Error {
  override name = 'PlaylistError';
}

export const isMasterPlaylist = (text: string): boolean => text.includes('#EXT-X-STREAM-INF');

function variantFrom(list: AttributeList, uri: string): MasterVariant {
  const bandwidth = numberAttr(list, 'BANDWIDTH');
  if (bandwidth === undefined || bandwidth <= 0)
    throw new PlaylistError('EXT-X-STREAM-INF without a BANDWIDTH');
  const res = attr(list, 'RESOLUTION')?.match(/^(\d+)x(\d+)$/);
  return {
    uri,
    bandwidth,
    averageBandwidth: numberAttr(list, 'AVERAGE-BANDWIDTH'),
    resolution: res ? { width: Number(res[1]), height: Number(res[2]) } : undefined,
    codecs: attr(list, 'CODECS'),
    frameRate: numberAttr(list, 'FRAME-RATE'),
    audioGroup: attr(list, 'AUDIO'),
    subtitleGroup: attr(list, 'SUBTITLES'),
  };
}

function mediaFrom(list: AttributeList, base: string): MasterMedia | undefined {
  const type = attr(list, 'TYPE');
  if (type !== 'AUDIO' && type !== 'SUBTITLES' && type !== 'CLOSED-CAPTIONS' && type !== 'VIDEO')
    return undefined;
  const uri = attr(list, 'URI');
  return {
    type,
    groupId: attr(list, 'GROUP-ID') ?? '',
    name: attr(list, 'NAME') ?? attr(list, 'LANGUAGE') ?? '',
    language: attr(list, 'LANGUAGE'),
    default: attr(list, 'DEFAULT') === 'YES',
    autoselect: attr(list, 'AUTOSELECT') === 'YES',
    channels: attr(list, 'CHANNELS'),
    instreamId: attr(list, 'INSTREAM-ID'),
    uri: uri === undefined ? undefined : resolveUri(uri, base),
  };
}

export function parseMasterPlaylist(text: string, baseUrl: string): MasterPlaylist {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== '#EXTM3U') throw new PlaylistError('playlist does not start with #EXTM3U');
  const variants: MasterVariant[] = [];
  const media: MasterMedia[] = [];
  let pending: AttributeList | undefined;
  for (const line of lines) {
    if (line === '') continue;
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pending = parseAttributes(line.slice('#EXT-X-STREAM-INF:'.length));
    } else if (line.startsWith('#EXT-X-MEDIA:')) {
      const m = mediaFrom(parseAttributes(line.slice('#EXT-X-MEDIA:'.length)), baseUrl);
      if (m) media.push(m);
    } else if (!line.startsWith('#') && pending) {
      variants.push(variantFrom(pending, resolveUri(line, baseUrl)));
      pending = undefined;
    }
  }
  if (variants.length === 0) throw new PlaylistError('master playlist has no variants');
  return { variants, media };
}
