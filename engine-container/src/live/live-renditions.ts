/**
 * Pure: which playlist of a live source feeds each of the channel's audio and subtitle renditions
 * (docs/live-mixing.md). Audio: the source's TYPE=AUDIO rendition of the same language, else the same
 * name, else its DEFAULT=YES one, else its first; a source with muxed audio only feeds the channel's
 * audio renditions with the reference variant (its segments carry the sound). Subtitles: the source's
 * TYPE=SUBTITLES rendition of the same language, else empty WebVTT on the reference's boundaries, as
 * for a VOD lacking that language (ladder/map-rendition.ts).
 */
import {
  audioKey,
  type OutputAudio,
  type OutputLadder,
  safeName,
  subtitleKey,
} from '../ladder/output-ladder';
import type { LivePlaylist, LiveRendition, LiveSnapshot, LiveVariant } from './live-source';

/** A channel subtitle rendition the source has no subtitles for: empty WebVTT segments. */
export const EMPTY_WEBVTT = 'empty-webvtt';
export type LiveSource = LivePlaylist | typeof EMPTY_WEBVTT;

const language = (r: LiveRendition): string | undefined =>
  r.media.language === undefined ? undefined : safeName(r.media.language);

/** The group the channel's audio rendition takes: same CHANNELS, else the reference's group, else the first. */
function audioGroup(audio: LiveRendition[], out: OutputAudio, ref: LiveVariant): string {
  const groups = [...new Set(audio.map((r) => r.media.groupId))];
  const byChannels = out.channels
    ? audio.find((r) => r.media.channels === out.channels)?.media.groupId
    : undefined;
  const refGroup = groups.find((g) => g === ref.variant.audioGroup);
  return byChannels ?? refGroup ?? groups[0]!;
}

export function audioSource(snapshot: LiveSnapshot, out: OutputAudio, ref: LiveVariant): LivePlaylist {
  const all = snapshot.renditions.filter((r) => r.media.type === 'AUDIO');
  if (all.length === 0) return ref;
  const group = audioGroup(all, out, ref);
  const audio = all.filter((r) => r.media.groupId === group);
  return (
    audio.find((r) => language(r) === out.language) ??
    audio.find((r) => r.media.name === out.name) ??
    audio.find((r) => r.media.default) ??
    audio[0]!
  );
}

export function subtitleSource(snapshot: LiveSnapshot, lang: string): LiveSource {
  return (
    snapshot.renditions.find((r) => r.media.type === 'SUBTITLES' && language(r) === lang) ?? EMPTY_WEBVTT
  );
}

/** Source per audio and subtitle rendition key of the ladder. */
export function renditionSources(
  snapshot: LiveSnapshot,
  ladder: OutputLadder,
  ref: LiveVariant,
): Record<string, LiveSource> {
  const map: Record<string, LiveSource> = {};
  for (const a of ladder.audio) map[audioKey(a)] = audioSource(snapshot, a, ref);
  for (const s of ladder.subtitles) map[subtitleKey(s)] = subtitleSource(snapshot, s.language);
  return map;
}
