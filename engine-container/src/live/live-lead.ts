/**
 * Pure: how far ahead of the clock the log runs while LIVE (docs/live-mixing.md, "Staying inside the
 * source's window"). The channel lists the source's segment URIs; it relays nothing. A source that
 * deletes its segments soon after they leave its playlist (ffmpeg's `-hls_list_size 6 -hls_flags
 * delete_segments`: one segment after) must therefore still have every segment a player fetches.
 * A segment the log takes when it appears becomes visible `lead` later, and a player at its default
 * live position (RFC 8216 §6.3.3, hls.js: 3 target durations from the end) fetches it about 3 channel
 * target durations after that; the source drops it from its playlist a window's length after it
 * appeared. So: lead + 3 channel target durations + one source target duration (deletion, fetch and
 * poll) <= the source's window. The lead is also never more than LIVE_LEAD_TARGET_DURATIONS (the
 * stall detection's reach) and never less than a segment and a half plus the cut margin: below that
 * the log would run dry between polls.
 */

/** hls.js's liveSyncDurationCount and RFC 8216's hold-back: a player sits this far behind the edge. */
export const PLAYER_HOLDBACK_TARGET_DURATIONS = 3;

export interface LeadInputs {
  /** The sum of the source reference playlist's EXTINFs: how long a segment stays listed. */
  sourceWindowMs: number;
  sourceTargetDurationS: number;
  channelTargetDurationS: number;
  /** How far ahead of the clock a cut may start (ChannelPlayout.marginMs). */
  marginMs: number;
  /** The most the log may lead by (LIVE_LEAD_TARGET_DURATIONS source target durations). */
  maxLeadMs: number;
}

export interface Lead {
  leadMs: number;
  /** false: the source's window is too short for a player at its default position (404s likely). */
  fits: boolean;
}

export function liveLead(i: LeadInputs): Lead {
  const sourceTdMs = i.sourceTargetDurationS * 1000;
  const minMs = Math.ceil(1.5 * sourceTdMs + i.marginMs);
  const fitMs =
    i.sourceWindowMs - PLAYER_HOLDBACK_TARGET_DURATIONS * i.channelTargetDurationS * 1000 - sourceTdMs;
  const leadMs = Math.max(minMs, Math.min(i.maxLeadMs, fitMs));
  return { leadMs, fits: fitMs >= minMs };
}
