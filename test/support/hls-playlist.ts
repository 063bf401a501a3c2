/**
 * A deliberately small HLS (RFC 8216) playlist parser for tests. It shares no code with the engine on
 * purpose: tests use it to check the engine's output from the outside, so a bug in the engine's own
 * parser or writer cannot hide itself. Unknown tags are ignored, as RFC 8216 asks of clients; what a
 * client cannot work with (no #EXTM3U, a non-numeric EXTINF, a URI without EXTINF...) throws.
 */

export class PlaylistSyntaxError extends Error {
  override name = 'PlaylistSyntaxError';
  constructor(
    message: string,
    /** 1-based line number of the offending line, when there is one. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

export interface MediaSegment {
  uri: string;
  /** EXTINF, seconds. */
  duration: number;
  /** Media sequence number: EXT-X-MEDIA-SEQUENCE + position. */
  mediaSequence: number;
  /** An EXT-X-DISCONTINUITY tag precedes this segment. */
  discontinuity: boolean;
  /**
   * Discontinuity sequence number (RFC 8216 6.2.2): EXT-X-DISCONTINUITY-SEQUENCE plus the
   * EXT-X-DISCONTINUITY tags at or before this segment in the playlist.
   */
  discontinuitySequence: number;
  /** Explicit EXT-X-PROGRAM-DATE-TIME on this segment, Unix ms. */
  programDateTimeMs?: number;
  /** EXT-X-BYTERANGE as written (`length[@offset]`). */
  byteRange?: string;
  /** The EXT-X-MAP in force for this segment. */
  map?: { uri: string; byteRange?: string };
}

export interface MediaPlaylist {
  version?: number;
  targetDuration: number;
  mediaSequence: number;
  discontinuitySequence: number;
  playlistType?: 'VOD' | 'EVENT';
  endList: boolean;
  independentSegments: boolean;
  segments: MediaSegment[];
}

export interface Variant {
  uri: string;
  bandwidth: number;
  averageBandwidth?: number;
  resolution?: { width: number; height: number };
  codecs?: string[];
  frameRate?: number;
  audio?: string;
  video?: string;
  subtitles?: string;
  closedCaptions?: string;
  attributes: Record<string, string>;
}

export type RenditionType = 'AUDIO' | 'VIDEO' | 'SUBTITLES' | 'CLOSED-CAPTIONS';

export interface Rendition {
  type: RenditionType;
  groupId: string;
  name: string;
  language?: string;
  uri?: string;
  default: boolean;
  autoselect: boolean;
  attributes: Record<string, string>;
}

export interface MasterPlaylist {
  version?: number;
  independentSegments: boolean;
  variants: Variant[];
  renditions: Rendition[];
}

const MASTER_ONLY_TAGS = [
  '#EXT-X-STREAM-INF',
  '#EXT-X-MEDIA:',
  '#EXT-X-I-FRAME-STREAM-INF',
  '#EXT-X-SESSION-',
];
const RENDITION_TYPES: readonly string[] = ['AUDIO', 'VIDEO', 'SUBTITLES', 'CLOSED-CAPTIONS'];

/** Parses an attribute list (`A=1,B="x,y",C=0x1F`): quoted strings come back without their quotes. */
export function parseAttributeList(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new PlaylistSyntaxError(`attribute without a value in "${text}"`);
    const name = text.slice(i, eq).trim();
    if (!/^[A-Z0-9-]+$/.test(name))
      throw new PlaylistSyntaxError(`bad attribute name "${name}" in "${text}"`);
    let value: string;
    let next: number;
    if (text[eq + 1] === '"') {
      const close = text.indexOf('"', eq + 2);
      if (close < 0) throw new PlaylistSyntaxError(`unterminated quoted string in "${text}"`);
      value = text.slice(eq + 2, close);
      next = close + 1;
    } else {
      const comma = text.indexOf(',', eq + 1);
      next = comma < 0 ? text.length : comma;
      value = text.slice(eq + 1, next).trim();
    }
    attributes[name] = value;
    if (next < text.length && text[next] !== ',') {
      throw new PlaylistSyntaxError(`expected "," after attribute ${name} in "${text}"`);
    }
    i = next + 1;
  }
  return attributes;
}

/** True when the text is a multivariant (master) playlist rather than a media playlist. */
export function isMasterPlaylist(text: string): boolean {
  return text.split(/\r?\n/).some((line) => line.startsWith('#EXT-X-STREAM-INF'));
}

function lines(text: string): { text: string; number: number }[] {
  const all = text.split(/\r?\n/).map((t, i) => ({ text: t.trim(), number: i + 1 }));
  const first = all.find((l) => l.text !== '');
  if (first?.text !== '#EXTM3U')
    throw new PlaylistSyntaxError('playlist does not start with #EXTM3U', first?.number);
  return all.filter((l) => l.text !== '' && l !== first);
}

function tagValue(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? '' : line.slice(colon + 1);
}

function number(value: string | undefined, what: string, line?: number): number {
  const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw new PlaylistSyntaxError(`${what} is not a number: "${value ?? ''}"`, line);
  return n;
}

function integer(value: string | undefined, what: string, line?: number): number {
  const n = number(value, what, line);
  if (!Number.isInteger(n) || n < 0)
    throw new PlaylistSyntaxError(`${what} is not a whole number: "${value}"`, line);
  return n;
}

function dateMs(value: string, line: number): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new PlaylistSyntaxError(`EXT-X-PROGRAM-DATE-TIME is not a date: "${value}"`, line);
  return ms;
}

export function parseMediaPlaylist(text: string): MediaPlaylist {
  let version: number | undefined;
  let targetDuration: number | undefined;
  let mediaSequence = 0;
  let discontinuitySequence = 0;
  let playlistType: MediaPlaylist['playlistType'];
  let endList = false;
  let independentSegments = false;
  let map: MediaSegment['map'];
  const raw: Omit<MediaSegment, 'mediaSequence' | 'discontinuitySequence'>[] = [];
  let pending: { duration?: number; discontinuity: boolean; programDateTimeMs?: number; byteRange?: string } =
    {
      discontinuity: false,
    };

  for (const { text: line, number: n } of lines(text)) {
    if (MASTER_ONLY_TAGS.some((tag) => line.startsWith(tag))) {
      throw new PlaylistSyntaxError('master playlist tag in a media playlist', n);
    }
    if (line.startsWith('#EXTINF:')) {
      pending.duration = number(tagValue(line).split(',')[0], 'EXTINF duration', n);
      if (pending.duration < 0) throw new PlaylistSyntaxError('EXTINF duration is negative', n);
    } else if (line.startsWith('#EXT-X-TARGETDURATION:')) {
      targetDuration = integer(tagValue(line), 'EXT-X-TARGETDURATION', n);
    } else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
      mediaSequence = integer(tagValue(line), 'EXT-X-MEDIA-SEQUENCE', n);
    } else if (line.startsWith('#EXT-X-DISCONTINUITY-SEQUENCE:')) {
      discontinuitySequence = integer(tagValue(line), 'EXT-X-DISCONTINUITY-SEQUENCE', n);
    } else if (line === '#EXT-X-DISCONTINUITY') {
      pending.discontinuity = true;
    } else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      pending.programDateTimeMs = dateMs(tagValue(line), n);
    } else if (line.startsWith('#EXT-X-BYTERANGE:')) {
      pending.byteRange = tagValue(line);
    } else if (line.startsWith('#EXT-X-MAP:')) {
      const attributes = parseAttributeList(tagValue(line));
      if (!attributes.URI) throw new PlaylistSyntaxError('EXT-X-MAP without URI', n);
      map = { uri: attributes.URI, ...(attributes.BYTERANGE ? { byteRange: attributes.BYTERANGE } : {}) };
    } else if (line.startsWith('#EXT-X-VERSION:')) {
      version = integer(tagValue(line), 'EXT-X-VERSION', n);
    } else if (line.startsWith('#EXT-X-PLAYLIST-TYPE:')) {
      const type = tagValue(line);
      if (type !== 'VOD' && type !== 'EVENT')
        throw new PlaylistSyntaxError(`bad EXT-X-PLAYLIST-TYPE "${type}"`, n);
      playlistType = type;
    } else if (line === '#EXT-X-ENDLIST') {
      endList = true;
    } else if (line === '#EXT-X-INDEPENDENT-SEGMENTS') {
      independentSegments = true;
    } else if (!line.startsWith('#')) {
      if (pending.duration === undefined) throw new PlaylistSyntaxError(`segment "${line}" has no EXTINF`, n);
      raw.push({
        uri: line,
        duration: pending.duration,
        discontinuity: pending.discontinuity,
        ...(map ? { map } : {}),
        ...optional(pending),
      });
      pending = { discontinuity: false };
    }
  }
  if (pending.duration !== undefined)
    throw new PlaylistSyntaxError('EXTINF without a segment URI at the end');
  if (targetDuration === undefined) throw new PlaylistSyntaxError('missing EXT-X-TARGETDURATION');

  let dsn = discontinuitySequence;
  const segments = raw.map((segment, i) => {
    if (segment.discontinuity) dsn += 1;
    return { ...segment, mediaSequence: mediaSequence + i, discontinuitySequence: dsn };
  });
  return {
    ...(version === undefined ? {} : { version }),
    targetDuration,
    mediaSequence,
    discontinuitySequence,
    ...(playlistType ? { playlistType } : {}),
    endList,
    independentSegments,
    segments,
  };
}

function optional(pending: { programDateTimeMs?: number; byteRange?: string }) {
  return {
    ...(pending.programDateTimeMs === undefined ? {} : { programDateTimeMs: pending.programDateTimeMs }),
    ...(pending.byteRange === undefined ? {} : { byteRange: pending.byteRange }),
  };
}

function parseResolution(value: string | undefined, line: number): Variant['resolution'] {
  if (value === undefined) return undefined;
  const match = /^(\d+)x(\d+)$/.exec(value);
  if (!match) throw new PlaylistSyntaxError(`bad RESOLUTION "${value}"`, line);
  return { width: Number(match[1]), height: Number(match[2]) };
}

function toVariant(attributes: Record<string, string>, uri: string, line: number): Variant {
  const variant: Variant = {
    uri,
    bandwidth: integer(attributes.BANDWIDTH, 'BANDWIDTH', line),
    attributes,
  };
  if (attributes['AVERAGE-BANDWIDTH'] !== undefined) {
    variant.averageBandwidth = integer(attributes['AVERAGE-BANDWIDTH'], 'AVERAGE-BANDWIDTH', line);
  }
  const resolution = parseResolution(attributes.RESOLUTION, line);
  if (resolution) variant.resolution = resolution;
  if (attributes.CODECS !== undefined) variant.codecs = attributes.CODECS.split(',').map((c) => c.trim());
  if (attributes['FRAME-RATE'] !== undefined)
    variant.frameRate = number(attributes['FRAME-RATE'], 'FRAME-RATE', line);
  if (attributes.AUDIO !== undefined) variant.audio = attributes.AUDIO;
  if (attributes.VIDEO !== undefined) variant.video = attributes.VIDEO;
  if (attributes.SUBTITLES !== undefined) variant.subtitles = attributes.SUBTITLES;
  if (attributes['CLOSED-CAPTIONS'] !== undefined) variant.closedCaptions = attributes['CLOSED-CAPTIONS'];
  return variant;
}

function toRendition(attributes: Record<string, string>, line: number): Rendition {
  const { TYPE: type, 'GROUP-ID': groupId, NAME: name } = attributes;
  if (!type || !RENDITION_TYPES.includes(type))
    throw new PlaylistSyntaxError(`bad EXT-X-MEDIA TYPE "${type}"`, line);
  if (!groupId || !name) throw new PlaylistSyntaxError('EXT-X-MEDIA needs GROUP-ID and NAME', line);
  return {
    type: type as RenditionType,
    groupId,
    name,
    ...(attributes.LANGUAGE === undefined ? {} : { language: attributes.LANGUAGE }),
    ...(attributes.URI === undefined ? {} : { uri: attributes.URI }),
    default: attributes.DEFAULT === 'YES',
    autoselect: attributes.AUTOSELECT === 'YES',
    attributes,
  };
}

export function parseMasterPlaylist(text: string): MasterPlaylist {
  const master: MasterPlaylist = { independentSegments: false, variants: [], renditions: [] };
  let pendingVariant: { attributes: Record<string, string>; line: number } | undefined;
  for (const { text: line, number: n } of lines(text)) {
    if (line.startsWith('#EXTINF') || line.startsWith('#EXT-X-TARGETDURATION')) {
      throw new PlaylistSyntaxError('media playlist tag in a master playlist', n);
    }
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pendingVariant = { attributes: parseAttributeList(tagValue(line)), line: n };
    } else if (line.startsWith('#EXT-X-MEDIA:')) {
      master.renditions.push(toRendition(parseAttributeList(tagValue(line)), n));
    } else if (line.startsWith('#EXT-X-VERSION:')) {
      master.version = integer(tagValue(line), 'EXT-X-VERSION', n);
    } else if (line === '#EXT-X-INDEPENDENT-SEGMENTS') {
      master.independentSegments = true;
    } else if (!line.startsWith('#')) {
      if (!pendingVariant) throw new PlaylistSyntaxError(`URI "${line}" without EXT-X-STREAM-INF`, n);
      master.variants.push(toVariant(pendingVariant.attributes, line, pendingVariant.line));
      pendingVariant = undefined;
    }
  }
  if (pendingVariant) throw new PlaylistSyntaxError('EXT-X-STREAM-INF without a URI', pendingVariant.line);
  if (master.variants.length === 0) throw new PlaylistSyntaxError('master playlist has no variants');
  return master;
}

/** Total of the EXTINF durations, seconds. */
export function playlistDuration(playlist: MediaPlaylist): number {
  return playlist.segments.reduce((sum, s) => sum + s.duration, 0);
}
