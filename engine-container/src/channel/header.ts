/**
 * What a channel fixes when its first item is appended, and keeps for the life of its log: the output
 * ladder and EXT-X-TARGETDURATION (forceTargetDuration, else the longest segment of the first VOD and
 * of the slate, rounded as RFC 8216 rounds EXTINF, plus targetDurationPadding). Later VODs with longer
 * segments are refused (slate) rather than breaking the target duration under players.
 */
import type { EngineConfig } from '../config';
import { buildLadder } from '../ladder/output-ladder';
import type { ChannelHeader } from '../playout/append';
import type { Channel, ChannelMedia } from '../types';
import type { ParsedVod } from '../vod/parsed-vod';
import type { PlannedItem } from './planner';

type HeaderConfig = Pick<
  EngineConfig,
  'forceTargetDuration' | 'targetDurationPadding' | 'useDemuxedAudio' | 'useVTTSubtitles'
>;

export function targetDurationFor(vods: readonly ParsedVod[], config: HeaderConfig): number {
  if (config.forceTargetDuration !== undefined) return config.forceTargetDuration;
  const longestMs = Math.max(0, ...vods.map((v) => v.maxSegmentMs));
  return Math.max(1, Math.round(longestMs / 1000)) + (config.targetDurationPadding ?? 0);
}

export function decideHeader(
  channel: Channel,
  planned: readonly PlannedItem[],
  slate: ParsedVod | undefined,
  config: HeaderConfig,
): ChannelHeader {
  const main = planned.find((p) => p.draft.kind === 'vod') ?? planned.find((p) => !p.vod.gap) ?? planned[0]!;
  const vods = [...planned.map((p) => p.vod), ...(slate ? [slate] : [])];
  const shaped = withAnswerMedia(channel, planned.find((p) => p.media)?.media);
  return { ladder: buildLadder(shaped, main.vod, config), targetDurationS: targetDurationFor(vods, config) };
}

/** What the channel declares wins, field by field; the asset manager's answer fills what it leaves open. */
export function withAnswerMedia(channel: Channel, media: ChannelMedia | undefined): Channel {
  if (!media) return channel;
  const pick = <K extends keyof ChannelMedia>(k: K) => (channel[k]?.length ? channel[k] : media[k]);
  return {
    ...channel,
    audioTracks: pick('audioTracks'),
    subtitleTracks: pick('subtitleTracks'),
    closedCaptions: pick('closedCaptions'),
    profile: pick('profile'),
  };
}
