/**
 * What the mixed channel plays, segment by segment, and where it changes (pure): each segment of the
 * channel's video playlist is named by where it comes from (the VOD origin's preroll or VOD, a live
 * source, the slate), and a seam is where that name changes.
 */

/** A URI prefix and what its segments are. */
export interface SegmentSource {
  prefix: string;
  kind: string;
}

export interface SeenSegment {
  mediaSequence: number;
  uri: string;
  programDateTimeMs?: number;
}

export interface Seam {
  /** The first segment after the seam: its program date-time (the channel's clock), if it has one. */
  atMs?: number;
  mediaSequence: number;
  from: string;
  to: string;
}

/** The kind of the longest matching prefix; the engine's slate is `slate`; anything else `other`. */
export function segmentKind(uri: string, sources: readonly SegmentSource[]): string {
  let best: SegmentSource | undefined;
  for (const s of sources)
    if (uri.startsWith(s.prefix) && (!best || s.prefix.length > best.prefix.length)) best = s;
  if (best) return best.kind;
  return /\/slate\//.test(uri) ? 'slate' : 'other';
}

export interface SeamState {
  /** The newest media sequence number seen, and its kind. */
  lastMsn: number;
  lastKind?: string;
}

/** The seams among the segments after `state.lastMsn`, and the state after them. */
export function newSeams(
  state: SeamState,
  segments: readonly SeenSegment[],
  sources: readonly SegmentSource[],
): { seams: Seam[]; state: SeamState } {
  const seams: Seam[] = [];
  let { lastMsn, lastKind } = state;
  for (const s of [...segments].sort((a, b) => a.mediaSequence - b.mediaSequence)) {
    if (s.mediaSequence <= lastMsn) continue;
    const kind = segmentKind(s.uri, sources);
    if (lastKind !== undefined && kind !== lastKind)
      seams.push({ atMs: s.programDateTimeMs, mediaSequence: s.mediaSequence, from: lastKind, to: kind });
    lastMsn = s.mediaSequence;
    lastKind = kind;
  }
  return { seams, state: { lastMsn, lastKind } };
}

/** `from → to` counts, in the order first seen. */
export function countSeams(seams: readonly Seam[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of seams) {
    const key = `${s.from} → ${s.to}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
