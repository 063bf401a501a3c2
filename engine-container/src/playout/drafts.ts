/**
 * Pure planning of one item's played range from a VOD and what the asset manager asked for:
 * offset snapped down to a segment start, truncation to whole reference segments, slates repeated,
 * and schedule compensation (an item that starts late plays shorter, by at most diffCompensationRate
 * of its length, so the channel drifts back to its schedule without a jump).
 */
import type { Track } from '../vod/track';
import { firstStartingAtOrAfter, indexBoundFor, startAt } from '../vod/track';
import type { ItemDraft, ItemKind } from './item';

export interface VodPlan {
  kind: ItemKind;
  id: string;
  title: string;
  uri: string;
  offsetMs?: number;
  desiredDurationMs?: number;
  /** How late this item starts against its schedule (ms, positive = late). */
  lateMs?: number;
  diffCompensationRate?: number;
  timedMetadata?: Record<string, string | number>;
  eventId?: string;
}

export function vodDraft(ref: Track, plan: VodPlan): ItemDraft {
  const n = ref.segments.length;
  const offset = Math.min(Math.max(0, Math.floor(plan.offsetMs ?? 0)), ref.totalMs - 1);
  const first = firstStartingAtOrAfter(ref, offset + 1, 0, n) - 1;
  const startMs = ref.startsMs[first]!;
  const wanted =
    plan.desiredDurationMs !== undefined && plan.desiredDurationMs > 0
      ? startMs + plan.desiredDurationMs
      : ref.totalMs;
  let end = Math.max(first + 1, firstStartingAtOrAfter(ref, Math.min(wanted, ref.totalMs), first + 1, n));
  const late = plan.lateMs ?? 0;
  if (late > 0 && plan.diffCompensationRate) {
    const fullEnd = ref.startsMs[end]!;
    const budget = Math.min(late, plan.diffCompensationRate * (fullEnd - startMs));
    while (end - 1 > first && fullEnd - ref.startsMs[end - 1]! <= budget) end--;
  }
  return {
    kind: plan.kind,
    id: plan.id,
    title: plan.title,
    uri: plan.uri,
    offsetMs: startMs,
    durationMs: ref.startsMs[end]! - startMs,
    loop: 0,
    timedMetadata: plan.timedMetadata,
    eventId: plan.eventId,
  };
}

/** A VOD repeated to fill a duration (rounded up to whole segments), or `repetitions` times. */
export function loopDraft(
  ref: Track,
  base: Omit<ItemDraft, 'offsetMs' | 'durationMs' | 'loop'>,
  fill: { durationMs: number } | { repetitions: number },
): ItemDraft {
  let durationMs: number;
  if ('repetitions' in fill) durationMs = fill.repetitions * ref.totalMs;
  else {
    const want = Math.max(1, fill.durationMs);
    durationMs = startAt(ref, firstStartingAtOrAfter(ref, want, 1, indexBoundFor(ref, want, true)));
  }
  return { ...base, offsetMs: 0, durationMs, loop: 1 };
}
