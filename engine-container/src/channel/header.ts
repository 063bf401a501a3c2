/**
 * What a channel fixes when its first item is appended, and keeps for the life of its log: the output
 * ladder and EXT-X-TARGETDURATION (forceTargetDuration, else the channel's own targetDuration, else the
 * longest segment of what it can play: its first items (VOD and preroll), the VOD it will play first,
 * and the slate, rounded as RFC 8216 rounds EXTINF, plus targetDurationPadding). Later VODs and LIVE
 * sources with longer segments are refused (slate) rather than breaking the target duration under
 * players: RFC 8216 wants every EXTINF, rounded, at most the target duration.
 *
 * The ladder comes from the channel's content, never from what happens to play first: the first
 * planned VOD, else the first VOD the asset manager knows the channel will play (its look-ahead,
 * IAssetManager.upcomingContent: a schedule channel whose first entry starts later), and the slate
 * playing until then is mapped onto it. Only with nothing known does the first item (the slate) shape
 * it: a channel that declares a profile (whose variants are its own), a channel of LIVE events alone,
 * or an asset manager that does not look ahead. A channel whose asset manager looks ahead and knows
 * nothing yet waits off air instead (waitsForContent). The header is stored with every log item, so
 * every engine serves the one its writer decided.
 */
import type { EngineConfig } from '../config';
import { buildLadder } from '../ladder/output-ladder';
import { sharedLadder } from '../ladder/shared-ladder';
import type { ChannelHeader } from '../playout/append';
import type { Channel, ChannelMedia } from '../types';
import type { ParsedVod } from '../vod/parsed-vod';
import type { LadderSource, PlannedItem, Upcoming } from './planner';

type HeaderConfig = Pick<
  EngineConfig,
  'forceTargetDuration' | 'targetDurationPadding' | 'useDemuxedAudio' | 'useVTTSubtitles'
>;

/**
 * The target duration a channel has before its first item when it is not computed from the media:
 * forceTargetDuration (the operator's, for every channel), else the channel's own. The first items are
 * held to it like every later one.
 */
export function fixedTargetDurationS(
  channel: Pick<Channel, 'targetDuration'>,
  config: Pick<EngineConfig, 'forceTargetDuration'>,
): number | undefined {
  return config.forceTargetDuration ?? channel.targetDuration;
}

export function targetDurationFor(
  channel: Pick<Channel, 'targetDuration'>,
  vods: readonly ParsedVod[],
  config: HeaderConfig,
): number {
  const fixed = fixedTargetDurationS(channel, config);
  if (fixed !== undefined) return fixed;
  const longestMs = Math.max(0, ...vods.map((v) => v.maxSegmentMs));
  return Math.max(1, Math.round(longestMs / 1000)) + (config.targetDurationPadding ?? 0);
}

export function decideHeader(
  channel: Channel,
  planned: readonly PlannedItem[],
  slate: ParsedVod | undefined,
  config: HeaderConfig,
  upcoming?: LadderSource,
): ChannelHeader {
  const source: LadderSource =
    planned.find((p) => p.draft.kind === 'vod') ?? upcoming ?? planned.find((p) => !p.vod.gap) ?? planned[0]!;
  const vods = [...planned.map((p) => p.vod), ...(upcoming ? [upcoming.vod] : []), ...(slate ? [slate] : [])];
  const shaped = withAnswerMedia(channel, planned.find((p) => p.media)?.media ?? upcoming?.media);
  return {
    ladder: sharedLadder(buildLadder(shaped, source.vod, config)),
    targetDurationS: targetDurationFor(channel, vods, config),
  };
}

/**
 * A channel stays off air rather than take its ladder from the slate when its asset manager looks
 * ahead and knows no VOD of it yet, unless the channel declares a profile (its own variants) or has
 * LIVE events (their mixing needs a header; a LIVE source's own ladder is not read for it).
 */
export function waitsForContent(channel: Channel, upcoming: Upcoming, liveScheduled: boolean): boolean {
  return upcoming === undefined && !channel.profile?.length && !liveScheduled;
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
