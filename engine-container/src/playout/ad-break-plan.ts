/**
 * A VOD with ad breaks inside it (VodResponse.adBreaks: a schedule entry's, docs/ad-insertion.md "Ad
 * breaks of schedule entries") as playout items. Spliced: the content is cut at each break, the ad
 * plays as a preroll item (the same cue-out / cue-in markers as a spliced preroll) and the content
 * resumes where it was cut. As interstitials: the content is not cut, only split into items at each
 * break, the later one continuing the stream (no discontinuity) and naming the ad
 * (render/interstitial.ts), so the break is an EXT-X-DATERANGE at its first segment. Every break is
 * placed on a segment boundary of the content, so the pieces join without a gap or a repeat.
 */

import type { AdBreak, AdDelivery, VodResponse } from '../types';
import { type ParsedVod, referenceTrack } from '../vod/parsed-vod';
import { firstStartingAtOrAfter, startAt, type Track } from '../vod/track';
import { interstitialPieces, type Piece, type PlacedBreak, splicedPieces } from './ad-breaks';
import { type VodPlan, vodDraft } from './drafts';
import type { ItemDraft } from './item';

export interface AdBreakPlanDeps {
  /** Loads a VOD that fits the channel (throws otherwise). */
  load(uri: string): Promise<ParsedVod>;
  /** Reports an ad that cannot be played: its break is left out, the content plays on uncut. */
  report(err: unknown, vodResponse: VodResponse): void;
}

export interface AdBreakPlanInput {
  vod: ParsedVod;
  /** The content's item as it would be without breaks (offsetMs and desiredDurationMs in programme time). */
  plan: VodPlan;
  breaks: readonly AdBreak[];
  delivery: AdDelivery;
}

export interface PlannedPiece {
  draft: ItemDraft;
  vod: ParsedVod;
}

/** Breaks in content order, each on the first content segment boundary at or after it; one per boundary. */
export function placeBreaks(ref: Track, breaks: readonly AdBreak[]): AdBreak[] {
  const n = ref.segments.length;
  const placed: AdBreak[] = [];
  for (const b of [...breaks].sort((x, y) => x.offsetMs - y.offsetMs)) {
    const offsetMs = startAt(ref, firstStartingAtOrAfter(ref, Math.max(0, b.offsetMs), 0, n));
    if (offsetMs >= ref.totalMs || placed.at(-1)?.offsetMs === offsetMs) continue;
    placed.push({ ...b, offsetMs });
  }
  return placed;
}

const adId = (b: AdBreak, index: number): string => `ad-break-${index}-${b.offsetMs}`;

export async function adBreakItems(deps: AdBreakPlanDeps, input: AdBreakPlanInput): Promise<PlannedPiece[]> {
  const ref = referenceTrack(input.vod);
  const breaks = placeBreaks(ref, input.breaks);
  const startMs = Math.max(0, input.plan.offsetMs ?? 0);
  if (input.delivery === 'interstitial') {
    const durationMs = input.plan.desiredDurationMs ?? ref.totalMs - startMs;
    const pieces = interstitialPieces(breaks, startMs, durationMs);
    return pieces.map((piece, k) => ({
      draft: contentDraft(input, ref, piece, k, pieces.length, breaks),
      vod: input.vod,
    }));
  }
  // Spliced: every ad is loaded first, all at once (a slow ad server delays the plan once, not per
  // break); its played length (whole ad segments) is its break's length in the programme.
  const ads = new Map<AdBreak, { vod: ParsedVod; durationMs: number }>();
  const loaded = await Promise.allSettled(breaks.map((b) => deps.load(b.uri)));
  loaded.forEach((result, index) => {
    const b = breaks[index]!;
    if (result.status === 'rejected') {
      deps.report(result.reason, { id: adId(b, index), title: 'ad break', uri: b.uri });
      return;
    }
    const vod = result.value;
    const draft = vodDraft(referenceTrack(vod), { ...adPlan(b, index), desiredDurationMs: b.durationMs });
    ads.set(b, { vod, durationMs: draft.durationMs });
  });
  const playable = breaks.filter((b) => ads.has(b));
  const placed: PlacedBreak[] = playable.map((b) => ({
    offsetMs: b.offsetMs,
    durationMs: ads.get(b)!.durationMs,
  }));
  const programmeMs = ref.totalMs + placed.reduce((sum, b) => sum + b.durationMs, 0);
  const pieces = splicedPieces(placed, startMs, input.plan.desiredDurationMs ?? programmeMs - startMs);
  return pieces.map((piece, k) => {
    if (piece.kind === 'content')
      return { draft: contentDraft(input, ref, piece, k, pieces.length, playable), vod: input.vod };
    const b = playable[piece.breakIndex]!;
    const ad = ads.get(b)!;
    const draft = vodDraft(referenceTrack(ad.vod), {
      ...adPlan(b, breaks.indexOf(b)),
      offsetMs: piece.offsetMs,
      desiredDurationMs: piece.durationMs,
    });
    return { draft, vod: ad.vod };
  });
}

const adPlan = (b: AdBreak, index: number) =>
  ({ kind: 'preroll', id: adId(b, index), title: 'ad break', uri: b.uri }) as const;

/**
 * One run of content: the entry's metadata on the first only (one EXT-X-DATERANGE per entry), the
 * schedule compensation on the last only (it shortens the item's end).
 */
function contentDraft(
  input: AdBreakPlanInput,
  ref: Track,
  piece: Piece,
  k: number,
  count: number,
  breaks: readonly AdBreak[],
): ItemDraft {
  const { lateMs, timedMetadata, ...plan } = input.plan;
  const draft = vodDraft(ref, {
    ...plan,
    offsetMs: piece.offsetMs,
    desiredDurationMs: piece.durationMs,
    ...(k === 0 && timedMetadata ? { timedMetadata } : {}),
    ...(k === count - 1 && lateMs !== undefined ? { lateMs } : {}),
  });
  if (piece.kind === 'content' && piece.interstitial !== undefined) {
    const b = breaks[piece.interstitial]!;
    draft.interstitial = { uri: b.uri, durationMs: b.durationMs };
    // The content goes on where the previous piece ended: the same stream, no discontinuity.
    if (k > 0) draft.continues = 1;
  }
  return draft;
}
