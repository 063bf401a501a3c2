/**
 * The channel's output ladder: which media playlists exist. Decided once, when the first item is
 * appended (from the channel's profile, else from that first VOD), and copied into every log item so
 * all instances agree and it never changes under a player. Each rendition has a key that is also its
 * URL path below /channels/<id>/: `v<k>` -> `<k>.m3u8`, `a:<group>:<lang>` -> `audio/<group>/<lang>.m3u8`,
 * `s:<lang>` -> `subs/<lang>.m3u8`.
 */
import type { Channel } from '../types';
import type { ParsedVod } from '../vod/parsed-vod';
import { profileForContent } from './profile-for-content';

export interface OutputVariant {
  bandwidth: number;
  averageBandwidth?: number;
  width?: number;
  height?: number;
  codecs?: string;
  frameRate?: number;
  audioGroup?: string;
}

export interface OutputAudio {
  groupId: string;
  language: string;
  name: string;
  default: number;
  channels?: string;
  /** Audio codec of the group (from a profile), used to pick the matching source group. */
  codec?: string;
}

/** A TYPE=CLOSED-CAPTIONS rendition: the captions travel inside the video, so it has no playlist. */
export interface OutputCaption {
  language: string;
  name: string;
  default: number;
  autoselect: number;
  instreamId: string;
}

export interface OutputSubtitle {
  language: string;
  name: string;
  default: number;
}

/** Plain JSON (numbers and strings only): it is stored in the playout log. */
export interface OutputLadder {
  variants: OutputVariant[];
  audio: OutputAudio[];
  subtitles: OutputSubtitle[];
  /** Absent in logs written before captions were decided with the ladder (the master then reads the channel's). */
  captions?: OutputCaption[];
}

export interface LadderOptions {
  useDemuxedAudio: boolean;
  useVTTSubtitles: boolean;
}

export const SUBTITLE_GROUP = 'subs';
export const safeName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_');

export const videoKey = (index: number): string => `v${index}`;
export const audioKey = (a: Pick<OutputAudio, 'groupId' | 'language'>): string =>
  `a:${a.groupId}:${a.language}`;
export const subtitleKey = (s: Pick<OutputSubtitle, 'language'>): string => `s:${s.language}`;

/** Per ladder object (a ladder never changes once made): every append asks for its channel's keys. */
const keysOf = new WeakMap<OutputLadder, readonly string[]>();

export function renditionKeys(ladder: OutputLadder): readonly string[] {
  let keys = keysOf.get(ladder);
  if (!keys) {
    keys = Object.freeze([
      ...ladder.variants.map((_, i) => videoKey(i)),
      ...ladder.audio.map(audioKey),
      ...ladder.subtitles.map(subtitleKey),
    ]);
    keysOf.set(ladder, keys);
  }
  return keys;
}

interface Track {
  language: string;
  name: string;
  default?: boolean;
}

function tracksOrVod(configured: Track[] | undefined, fromVod: Track[]): Track[] {
  const list = configured?.length ? configured : fromVod;
  const seen = new Set<string>();
  return list.filter((t) => !seen.has(t.language) && seen.add(t.language));
}

const markDefault = (list: Track[]): number[] => {
  const explicit = list.findIndex((t) => t.default);
  const chosen = Math.max(explicit, 0);
  return list.map((_, i) => (i === chosen ? 1 : 0));
};

function fromProfile(
  channel: Channel,
  vod: ParsedVod,
  audioTracks: Track[],
  opts: LadderOptions,
): Omit<OutputLadder, 'subtitles'> {
  const audio: OutputAudio[] = [];
  const variants = profileForContent(channel.profile ?? [], vod).map((p) => {
    const [, audioCodec] = p.codecs.split(',').map((c) => c.trim());
    const channels = p.channels ?? '2';
    const groupId = safeName(`${audioCodec ?? 'audio'}-${channels}`);
    const demux = opts.useDemuxedAudio && audioTracks.length > 0;
    if (demux && !audio.some((a) => a.groupId === groupId)) {
      const defaults = markDefault(audioTracks);
      audioTracks.forEach((t, i) => {
        audio.push({
          groupId,
          language: safeName(t.language),
          name: t.name,
          default: defaults[i]!,
          channels,
          codec: audioCodec,
        });
      });
    }
    return {
      bandwidth: p.bw,
      width: p.resolution[0],
      height: p.resolution[1],
      codecs: p.codecs,
      audioGroup: demux ? groupId : undefined,
    };
  });
  return { variants, audio };
}

/** Audio group of a channel whose tracks are declared but whose first VOD has its audio muxed. */
export const DECLARED_AUDIO_GROUP = 'audio';

function fromVod(
  vod: ParsedVod,
  audioTracks: Track[],
  declared: boolean,
  opts: LadderOptions,
): Omit<OutputLadder, 'subtitles'> {
  const demux = opts.useDemuxedAudio && (vod.audio.length > 0 || declared) && audioTracks.length > 0;
  const groups = demux
    ? [...new Set(vod.variants.map((v) => v.audioGroup).filter((g): g is string => !!g))]
    : [];
  if (demux && groups.length === 0) groups.push(vod.audio[0]?.groupId ?? DECLARED_AUDIO_GROUP);
  const defaults = markDefault(audioTracks);
  const audio = groups.flatMap((g) =>
    audioTracks.map((t, i) => ({
      groupId: safeName(g),
      language: safeName(t.language),
      name: t.name,
      default: defaults[i]!,
    })),
  );
  const variants = vod.variants.map((v) => ({
    bandwidth: v.bandwidth,
    averageBandwidth: v.averageBandwidth,
    width: v.resolution?.width,
    height: v.resolution?.height,
    codecs: v.codecs,
    frameRate: v.frameRate,
    audioGroup: demux ? safeName(v.audioGroup ?? groups[0]!) : undefined,
  }));
  return { variants, audio };
}

/**
 * The ladder a new channel gets: its profile if set (its Atmos rungs only over content with Atmos,
 * profile-for-content.ts), else the first VOD's variants.
 */
export function buildLadder(channel: Channel, vod: ParsedVod, opts: LadderOptions): OutputLadder {
  const vodAudio = vod.audio.map((a) => ({
    language: a.language ?? a.name,
    name: a.name,
    default: a.default,
  }));
  const audioTracks = opts.useDemuxedAudio ? tracksOrVod(channel.audioTracks, vodAudio) : [];
  const base = channel.profile?.length
    ? fromProfile(channel, vod, audioTracks, opts)
    : fromVod(vod, audioTracks, !!channel.audioTracks?.length, opts);
  // Unlike audio, no subtitle is DEFAULT unless the channel asks (docs/media.md): a VOD's DEFAULT=YES
  // is not inherited, since the first VOD's choice would switch subtitles on for every viewer of every
  // later item; turning them on for all is the channel's decision, made in its subtitleTracks.
  const vodSubs = vod.subtitles.map((s) => ({
    language: s.language ?? s.name,
    name: s.name,
    default: false,
  }));
  const subs = opts.useVTTSubtitles ? tracksOrVod(channel.subtitleTracks, vodSubs) : [];
  const subtitles = subs.map((s) => ({
    language: safeName(s.language),
    name: s.name,
    default: s.default ? 1 : 0,
  }));
  // JSON round trip drops undefined fields: the ladder is stored as plain data.
  return JSON.parse(
    JSON.stringify({ ...base, subtitles, captions: captionsFor(channel, vod) }),
  ) as OutputLadder;
}

/**
 * The channel's closedCaptions, else the first VOD's TYPE=CLOSED-CAPTIONS declarations: a source with
 * captions never plays under CLOSED-CAPTIONS=NONE. One rendition per INSTREAM-ID.
 */
function captionsFor(channel: Channel, vod: ParsedVod): OutputCaption[] {
  const declared = channel.closedCaptions?.length
    ? channel.closedCaptions.map((c) => ({ ...c, language: c.lang, instreamId: c.id, autoselect: c.auto }))
    : (vod.captions ?? []).map((m) => ({ ...m, language: m.language ?? '', instreamId: m.instreamId ?? '' }));
  const seen = new Set<string>();
  return declared
    .filter((c) => c.instreamId && !seen.has(c.instreamId) && seen.add(c.instreamId))
    .map((c) => ({
      language: c.language,
      name: c.name,
      default: c.default ? 1 : 0,
      autoselect: c.autoselect ? 1 : 0,
      instreamId: c.instreamId,
    }));
}
