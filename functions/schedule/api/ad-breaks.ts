/**
 * Ad breaks of a schedule entry (docs/schedule-api.md "Ad breaks"): where in the entry's content (its
 * VOD, ads not counted: the same point whichever the delivery) each falls, how long its ad is, and the
 * ad's HLS playlist, a user's URL like the entry's own (httpUrl; probed through the guarded fetch
 * before it is stored, as a VOD entry's url is). Limits: at most MAX_AD_BREAKS per entry, ads of 1 ms
 * to MAX_AD_BREAK_MS each, offsets strictly increasing (two breaks never share a point) and inside the
 * entry, VOD entries only.
 */
import { z } from 'zod';
import { AD_DELIVERIES } from '../../../core/asrun/asrun-entry';
import { badRequest } from '../../../core/errors';
import type { Probe } from '../../../core/fetch/hls-probe';
import { httpUrl } from '../../../core/validation';
import type { AdBreak } from '../model';

export const MAX_AD_BREAKS = 20;
/** Ten minutes, as a channel's preroll (functions/channel/channel-schema.ts MAX_PREROLL_MS). */
export const MAX_AD_BREAK_MS = 600_000;
/** 31 days: the longest schedule range (SCHEDULE_MAX_RANGE_DAYS at most); the entry's own length is checked after. */
const MAX_OFFSET_MS = 31 * 86_400_000;

/** How a channel's ad breaks reach the viewer (docs/ad-insertion.md), as a Loop channel's preroll. */
export const adDeliverySchema = z
  .enum(AD_DELIVERIES)
  .describe('spliced (default): in the stream; interstitial: an HLS interstitial the player fetches');

const adBreakSchema = z
  .object({
    offset: z
      .number()
      .int()
      .min(0)
      .max(MAX_OFFSET_MS)
      .describe("ms into the entry's content (its VOD; earlier ads not counted)"),
    duration: z.number().int().min(1).max(MAX_AD_BREAK_MS).describe('ms of the ad'),
    url: httpUrl.describe("the ad's HLS master or media playlist"),
  })
  .strict();

export const adBreaksSchema = z
  .array(adBreakSchema)
  .max(MAX_AD_BREAKS, `must hold at most ${MAX_AD_BREAKS} ad breaks`)
  .superRefine((breaks, ctx) => {
    for (let i = 1; i < breaks.length; i++) {
      const before = breaks[i - 1]!;
      if (breaks[i]!.offset <= before.offset)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [i, 'offset'],
          message: 'must be after the offset of the break before it (breaks in order, one per point)',
        });
    }
  })
  .describe('ad breaks inside a VOD entry, in order of offset (docs/ad-insertion.md)');

/** Every break starts inside the entry (400 naming the first that does not). */
export function checkAdBreaksInside(breaks: readonly AdBreak[] | undefined, entryMs: number): void {
  breaks?.forEach((b, i) => {
    if (b.offset >= entryMs)
      throw badRequest(
        `adBreaks.${i}.offset: must be inside the entry (under ${entryMs} ms)`,
        `adBreaks.${i}.offset`,
      );
  });
}

/**
 * Every ad must answer as HLS now, as a VOD entry's url must (400 naming the first that does not). Each
 * distinct URL is fetched once, all at once: one request costs at most MAX_AD_BREAKS fetches, each
 * bounded (SCHEDULE_FETCH_TIMEOUT_MS), whatever the list repeats.
 */
export async function checkAdSources(breaks: readonly AdBreak[] | undefined, probe: Probe): Promise<void> {
  if (!breaks?.length) return;
  const urls = [...new Set(breaks.map((b) => b.url))];
  const answers = await Promise.all(urls.map(probe));
  const problemOf = new Map(urls.map((url, k) => [url, answers[k]]));
  const problems = breaks.map((b) => problemOf.get(b.url));
  const i = problems.findIndex((p) => p !== undefined);
  if (i >= 0)
    throw badRequest(`adBreaks.${i}.url does not answer as HLS (${problems[i]})`, `adBreaks.${i}.url`);
}
