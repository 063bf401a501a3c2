/**
 * A channel profile says what its rungs play, and the master repeats it to players. A rung with
 * object-based audio (`channels: "16/JOC"`, Dolby Atmos) is only true of content that has an Atmos
 * audio group: over content without one (the VOD the ladder is decided from, channel/header.ts) the
 * rung keeps its video but is relabelled with the audio it does play, the codec and channels of the
 * profile's first rung without Atmos (whose group it then shares), else of the content's own audio.
 * So the master never lists an Atmos rendition that plays stereo AAC under an ec-3 label.
 */
import type { ChannelProfile } from '../types';
import type { ParsedVod } from '../vod/parsed-vod';

const OBJECT_AUDIO = /JOC/i;
const VIDEO_CODEC = /^(avc|hvc|hev|av01|vp0|vp9|dvh|dva)/i;

export const isAtmos = (channels: string | undefined): boolean => OBJECT_AUDIO.test(channels ?? '');

export const hasAtmos = (vod: ParsedVod): boolean => vod.audio.some((a) => isAtmos(a.channels));

interface AudioLabel {
  codec?: string;
  channels: string;
}

const split = (codecs: string | undefined): string[] =>
  (codecs ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

/** The audio codec in a CODECS value (the first codec that is not a video codec). */
export const audioCodecOf = (codecs: string | undefined): string | undefined =>
  split(codecs).find((c) => !VIDEO_CODEC.test(c));

/** What the content's default audio is: its first audio group (else its muxed audio), as labelled. */
function contentAudio(vod: ParsedVod): AudioLabel {
  const group = vod.variants[0]?.audioGroup ?? vod.audio[0]?.groupId;
  const media = vod.audio.find((a) => a.groupId === group);
  const variant = vod.variants.find((v) => v.audioGroup === group) ?? vod.variants[0];
  return { codec: audioCodecOf(variant?.codecs), channels: media?.channels ?? '2' };
}

/** A profile rung's codecs are "<video>,<audio>": the video stays, the audio is what plays. */
function relabel(rung: ChannelProfile, audio: AudioLabel): ChannelProfile {
  const [video] = split(rung.codecs);
  const codecs = [video, audio.codec].filter((c): c is string => !!c).join(',');
  return { ...rung, codecs, channels: audio.channels };
}

/** The profile as true of `vod`: its Atmos rungs relabelled when the content has no Atmos. */
export function profileForContent(profile: readonly ChannelProfile[], vod: ParsedVod): ChannelProfile[] {
  if (!profile.some((p) => isAtmos(p.channels)) || hasAtmos(vod)) return [...profile];
  const plain = profile.find((p) => !isAtmos(p.channels));
  const audio: AudioLabel = plain
    ? { codec: audioCodecOf(plain.codecs), channels: plain.channels ?? '2' }
    : contentAudio(vod);
  return profile.map((p) => (isAtmos(p.channels) ? relabel(p, audio) : p));
}
