/**
 * One line of a channel's as-run log: something that aired, from when to when (docs/asrun.md). Built
 * by the engine from its shared playout log (engine-container/src/asrun/), stored per channel in the
 * `asRun` table and served by the channel and schedule APIs, as JSON or CSV. Times are Unix ms.
 */
import { z } from 'zod';

export const ASRUN_KINDS = ['vod', 'preroll', 'slate', 'live'] as const;
export type AsRunKind = (typeof ASRUN_KINDS)[number];

/** Why a live event went off air: its scheduled end, its source failing (or the event removed), a reset. */
export const LIVE_OUT_REASONS = ['scheduled_end', 'source_failed', 'interrupted'] as const;
export type LiveOutReason = (typeof LIVE_OUT_REASONS)[number];

export interface AdBreak {
  /** The break's cue-out (EXT-X-CUE-OUT, SCTE-35 out of network) and cue-in, Unix ms. */
  cueOutMs: number;
  cueInMs: number;
  durationMs: number;
  /** The break duration the cue-out announced. */
  plannedDurationMs: number;
  /**
   * `spliced`: the ad's segments aired in the channel (a preroll item). `interstitial`: the channel
   * offered the ad as an HLS interstitial at cue-out (= cue-in: the channel's own timeline does not
   * move); players that support interstitials fetch and play it themselves.
   */
  delivery: AdDelivery;
}

export const AD_DELIVERIES = ['spliced', 'interstitial'] as const;
export type AdDelivery = (typeof AD_DELIVERIES)[number];

export interface LiveSpan {
  inMs: number;
  outMs: number;
  outReason: LiveOutReason;
}

export interface AsRunEntry {
  /** Wall clock, Unix ms: the first segment's PROGRAM-DATE-TIME and the end of its last segment. */
  startMs: number;
  endMs: number;
  durationMs: number;
  kind: AsRunKind;
  /** The asset's id and title (a slate: `slate`; a live event: its asset id, else its event id). */
  id: string;
  title: string;
  /** The schedule event (live event, VOD event) it played. */
  eventId?: string;
  /** A slate's cause: `gap` (asked for), `vod_error`, `store_unavailable`, `live_segments_too_long`. */
  reason?: string;
  /** A preroll is an ad break; so is an interstitial offered at the start of a VOD. */
  adBreak?: AdBreak;
  /** A live event's switch in and out. */
  live?: LiveSpan;
}

const ms = z.number().int();
export const asRunEntrySchema = z.object({
  startMs: ms,
  endMs: ms,
  durationMs: ms,
  start: z.string().describe('ISO 8601 UTC'),
  end: z.string().describe('ISO 8601 UTC'),
  kind: z.enum(ASRUN_KINDS),
  id: z.string(),
  title: z.string(),
  eventId: z.string().optional(),
  reason: z.string().optional(),
  adBreak: z
    .object({
      cueOutMs: ms,
      cueInMs: ms,
      durationMs: ms,
      plannedDurationMs: ms,
      delivery: z.enum(AD_DELIVERIES),
    })
    .optional()
    .describe('prerolls and interstitials: the ad break'),
  live: z
    .object({ inMs: ms, outMs: ms, outReason: z.enum(LIVE_OUT_REASONS) })
    .optional()
    .describe('live events: switch in and out'),
});

export type AsRunView = z.infer<typeof asRunEntrySchema>;

/** The entry as the APIs answer it: its times also in ISO 8601. */
export const asRunView = (e: AsRunEntry): AsRunView => ({
  ...e,
  start: new Date(e.startMs).toISOString(),
  end: new Date(e.endMs).toISOString(),
});
