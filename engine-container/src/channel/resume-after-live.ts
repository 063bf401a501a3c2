/**
 * After a LIVE event the channel resumes what the event cut into (docs/live-mixing.md "After the
 * event"), when its asset manager says so (IAssetManager.resumesAfterLive): the VOD item playing when
 * the event started, from where it was cut, then the items already planned after it, none asked for
 * again. What to resume is written on the event's own items (PlayoutItem.resumes), so it outlives the
 * trimmed tail and any engine that ends the event resumes it (high availability).
 */
import { type ItemDraft, itemEndMs, type PlayoutItem, type ResumePoint } from '../playout/item';

const RESUMABLE = new Set<PlayoutItem['kind']>(['vod', 'preroll']);

/** Is the draft one of a LIVE event's items (its live segments, or the slate for a refused source)? */
const isLiveEventDraft = (draft: ItemDraft): boolean =>
  draft.eventId !== undefined && (draft.kind === 'live' || draft.reason === 'live_segments_too_long');

/**
 * What a LIVE event's item starting at startMs cuts into: the VOD or preroll item playing then (its
 * rest) and the items after it, which the cut voids; a later item of the same event, or an event that
 * follows another, carries the earlier item's.
 */
export function resumePointsAt(tail: readonly PlayoutItem[], startMs: number): ResumePoint[] {
  let k = tail.length - 1;
  while (k >= 0 && tail[k]!.startMs >= startMs) k--;
  const playing = tail[k];
  if (playing?.resumes) return playing.resumes;
  const points: ResumePoint[] = [];
  const point = (item: PlayoutItem, playedMs: number): ResumePoint => ({
    kind: item.kind,
    id: item.id,
    title: item.title,
    uri: item.uri,
    offsetMs: item.offsetMs + playedMs,
    durationMs: (item.fullDurationMs ?? item.durationMs) - playedMs,
    ...(item.timedMetadata && playedMs === 0 ? { timedMetadata: item.timedMetadata } : {}),
  });
  // Cut by the event, or cut short when planned because the event was coming: the rest is resumed.
  const played = playing ? Math.min(startMs, itemEndMs(playing)) - playing.startMs : 0;
  const whole = playing ? (playing.fullDurationMs ?? playing.durationMs) : 0;
  if (playing && !playing.eventId && RESUMABLE.has(playing.kind) && played < whole)
    points.push(point(playing, played));
  for (const voided of tail.slice(k + 1))
    if (!voided.eventId && RESUMABLE.has(voided.kind)) points.push(point(voided, 0));
  return points;
}

/** Writes on a LIVE event's draft what it cuts into (nothing on other drafts). */
export function markResumePoints(draft: ItemDraft, tail: readonly PlayoutItem[], startMs: number): void {
  if (!isLiveEventDraft(draft)) return;
  const points = resumePointsAt(tail, startMs);
  if (points.length) draft.resumes = points;
}

/** What the channel resumes now: what the LIVE event that ends its log cut into, if one does. */
export function resumeAfterLive(tail: readonly PlayoutItem[]): ResumePoint[] | undefined {
  const last = tail[tail.length - 1];
  return last?.eventId ? last.resumes : undefined;
}
