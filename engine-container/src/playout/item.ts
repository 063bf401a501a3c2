/**
 * A playout log item: what a channel plays from startMs on. Items are appended in order and never
 * edited; item seq+1 normally starts exactly where seq's played duration ends. The per-rendition
 * counts make any window computable from the last few items, without replaying history.
 * Plain JSON, numbers and strings only: the DynamoDB store writes items as they are.
 */
import type { SegmentCue } from '../hls/parse-cues';
import type { ByteRange } from '../hls/parse-media';
import type { OutputLadder } from '../ladder/output-ladder';

export type ItemKind = 'vod' | 'slate' | 'preroll' | 'gap' | 'live';

/**
 * One live source segment as the log keeps it: what a player needs to fetch and decode it (absolute
 * URIs, the source's EXT-X-MAP and EXT-X-KEY lines re-serialised), the source's discontinuity and cue.
 * Optional fields are absent, never undefined (the log is plain JSON).
 */
export interface LiveSegment {
  uri: string;
  durationMs: number;
  byterange?: ByteRange;
  keys?: string;
  map?: string;
  /** 1: the source put EXT-X-DISCONTINUITY before it. */
  discontinuity?: 1;
  cue?: SegmentCue;
}

/** A live source's segments an item plays (live mixing): they are in the log, not in a VOD. */
export interface LiveSegments {
  /** The source's media sequence number of the first segment. */
  msn: number;
  /** Per output rendition key (and the reference key): the segments. */
  segments: Record<string, LiveSegment[]>;
  /** Where the event's live stream started on the channel (this item's start, or the first live item's). */
  inMs?: number;
  /** The event's scheduled end when this item was planned: a stream that reaches it ended as scheduled. */
  eventEndMs?: number;
}

export interface PlayoutItem {
  seq: number;
  /** Wall-clock start, Unix ms. */
  startMs: number;
  kind: ItemKind;
  id: string;
  title: string;
  /** VOD URI (for 'gap': the synthetic gap URI). */
  uri: string;
  /** Start inside the VOD on its reference rendition, ms (a segment start). */
  offsetMs: number;
  /** Played duration, ms, fixed when appended (whole reference segments). */
  durationMs: number;
  /** 1 when the VOD repeats to fill durationMs (slates, gaps). */
  loop: number;
  /** EXT-X-TARGETDURATION of the channel, fixed by its first item. */
  targetDurationS: number;
  ladder: OutputLadder;
  /** Per output rendition key: segments played by all earlier items. */
  segmentsBefore: Record<string, number>;
  /** Per output rendition key: EXT-X-DISCONTINUITY tags in all earlier items. */
  discontinuitiesBefore: Record<string, number>;
  timedMetadata?: Record<string, string | number>;
  /** The schedule event this item plays (stream switch manager). */
  eventId?: string;
  /** Why a slate/gap item was inserted. */
  reason?: string;
  /** kind 'live': the segments it plays. */
  live?: LiveSegments;
  /** 1: continues the previous item's stream (the next live segments): no discontinuity at its start. */
  continues?: 1;
  /** How long the item would have played had a coming event not cut it short when it was planned. */
  fullDurationMs?: number;
  /** A LIVE event's items: what the event cut into, resumed after it (channel/resume-after-live.ts). */
  resumes?: ResumePoint[];
  /** An ad played before this item as an HLS interstitial (render/interstitial.ts), not spliced in. */
  interstitial?: InterstitialAd;
}

/** An ad a player fetches itself: its playlist, played at the item's start; the content waits for it. */
export interface InterstitialAd {
  /** The ad's master or media playlist (X-ASSET-URI). */
  uri: string;
  /** Stops the ad after this many ms (X-PLAYOUT-LIMIT); absent: all of it. */
  durationMs?: number;
}

/** An item a LIVE event cut into, from where it was cut: played again after the event. */
export interface ResumePoint {
  kind: ItemKind;
  id: string;
  title: string;
  uri: string;
  offsetMs: number;
  durationMs: number;
  timedMetadata?: Record<string, string | number>;
}

/** What the planner decides; the log adds seq, start, counts, ladder and target duration. */
export type ItemDraft = Pick<
  PlayoutItem,
  'kind' | 'id' | 'title' | 'uri' | 'offsetMs' | 'durationMs' | 'loop'
> &
  Partial<
    Pick<
      PlayoutItem,
      | 'timedMetadata'
      | 'eventId'
      | 'reason'
      | 'live'
      | 'continues'
      | 'resumes'
      | 'fullDurationMs'
      | 'interstitial'
    >
  >;

export const itemEndMs = (item: PlayoutItem): number => item.startMs + item.durationMs;
