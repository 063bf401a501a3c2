/**
 * Pure: a live source's ad cues placed on the channel's clock. A break's EXT-X-DATERANGE has one ID
 * and one START-DATE in every playlist and for its IN as for its OUT (RFC 8216 §4.3.2.7), so both are
 * fixed here, once, from the reference rendition, and kept in the log with the segments; the break
 * still open at the log's end is read back from the log (any engine may append the next batch).
 */
import type { SegmentCue } from '../hls/parse-cues';
import type { SourceSegment } from '../hls/parse-media';
import { REFERENCE_KEY } from '../playout/append';
import type { PlayoutItem } from '../playout/item';

export interface OpenBreak {
  id: string;
  startMs: number;
  durationMs?: number;
}

/** The break the event's live items leave open (an OUT or CONT without an IN after it). */
export function openBreakAt(items: readonly PlayoutItem[], eventId: string): OpenBreak | undefined {
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k]!;
    if (item.eventId !== eventId || !item.live) continue;
    const ref = item.live.segments[REFERENCE_KEY] ?? [];
    for (let i = ref.length - 1; i >= 0; i--) {
      const cue = ref[i]!.cue;
      if (!cue) continue;
      if (cue.kind === 'in' || cue.id === undefined || cue.startMs === undefined) return undefined;
      return { id: cue.id, startMs: cue.startMs, durationMs: cue.durationMs };
    }
  }
  return undefined;
}

/**
 * The cue of each reference segment (fromMsn on, played from startMs), with the break's ID and start.
 * Inside a known break a segment without a tag of its own gets a CONT (until the planned end), so
 * players joining mid-break see it; an IN closes the break.
 */
export function placeCues(
  ref: readonly SourceSegment[],
  fromMsn: number,
  startMs: number,
  eventId: string,
  open: OpenBreak | undefined,
): { cues: Array<SegmentCue | undefined>; open: OpenBreak | undefined } {
  const cues: Array<SegmentCue | undefined> = [];
  let at = startMs;
  ref.forEach((s, i) => {
    const cue = s.cue;
    const inPlannedBreak = open && (open.durationMs === undefined || at < open.startMs + open.durationMs);
    if (cue?.kind === 'out') {
      const id = cue.id ?? `${eventId}-${fromMsn + i}`;
      open = { id, startMs: at, durationMs: cue.durationMs };
      cues.push({ ...cue, id, startMs: at });
    } else if (cue?.kind === 'in') {
      const id = cue.id ?? open?.id;
      const known = open && open.id === id;
      cues.push({ ...cue, ...(id ? { id } : {}), ...(known ? { startMs: open!.startMs } : {}) });
      open = undefined;
    } else if (cue?.kind === 'cont' && !open && cue.elapsedMs !== undefined) {
      // Joined mid-break: the source says how long ago it started.
      open = { id: `${eventId}-${fromMsn + i}`, startMs: at - cue.elapsedMs, durationMs: cue.durationMs };
      cues.push({ ...cue, id: open.id, startMs: open.startMs });
    } else if (open && (cue?.kind === 'cont' || inPlannedBreak)) {
      const durationMs = cue?.durationMs ?? open.durationMs;
      cues.push({ kind: 'cont', id: open.id, startMs: open.startMs, ...(durationMs ? { durationMs } : {}) });
    } else cues.push(undefined);
    at += s.durationMs;
  });
  return { cues, open };
}
