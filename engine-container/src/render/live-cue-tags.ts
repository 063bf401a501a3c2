/**
 * A live source's ad cues as the channel says them (live items only): the EXT-X-CUE-OUT / CUE-OUT-CONT
 * / CUE-IN family and an EXT-X-DATERANGE with SCTE35-OUT / SCTE35-IN, as for prerolls
 * (segment-tags.ts). The break's ID and START-DATE were fixed when its segments entered the log
 * (live/live-cues.ts); the splice_info_section is the source's, else one made here (scte35.ts).
 */

import { quotedSafe } from '../hls/attributes';
import type { SegmentCue } from '../hls/parse-cues';
import type { WindowSegment } from '../playout/window';
import { isoDate } from '../util/iso-date';
import { scte35SpliceInsert } from './scte35';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** A splice event id for a break without the source's section: stable, from the break's ID. */
function spliceEventId(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) >>> 0;
  return h;
}

function outTags(cue: SegmentCue, pdtMs: number): string[] {
  const id = quotedSafe(cue.id ?? `cue-${pdtMs}`);
  const d = cue.durationMs;
  const scte = cue.scte35 ?? scte35SpliceInsert(spliceEventId(id), true, d);
  const planned = d === undefined ? '' : `,PLANNED-DURATION=${seconds(d)}`;
  return [
    `#EXT-X-DATERANGE:ID="${id}",START-DATE="${isoDate(cue.startMs ?? pdtMs)}"${planned},SCTE35-OUT=${scte}`,
    d === undefined ? '#EXT-X-CUE-OUT' : `#EXT-X-CUE-OUT:DURATION=${seconds(d)}`,
  ];
}

function contTags(cue: SegmentCue, pdtMs: number): string[] {
  const elapsedMs = cue.startMs !== undefined ? pdtMs - cue.startMs : cue.elapsedMs;
  const attrs = [
    ...(elapsedMs === undefined ? [] : [`ElapsedTime=${seconds(elapsedMs)}`]),
    ...(cue.durationMs === undefined ? [] : [`Duration=${seconds(cue.durationMs)}`]),
  ];
  return [attrs.length ? `#EXT-X-CUE-OUT-CONT:${attrs.join(',')}` : '#EXT-X-CUE-OUT-CONT'];
}

function inTags(cue: SegmentCue, pdtMs: number): string[] {
  const out = ['#EXT-X-CUE-IN'];
  // The IN's date range shares the OUT's ID and START-DATE: only when both are known.
  if (cue.id !== undefined && cue.startMs !== undefined) {
    const scte = cue.scte35 ?? scte35SpliceInsert(spliceEventId(cue.id), false);
    out.push(
      `#EXT-X-DATERANGE:ID="${quotedSafe(cue.id)}",START-DATE="${isoDate(cue.startMs)}",DURATION=${seconds(pdtMs - cue.startMs)},SCTE35-IN=${scte}`,
    );
  }
  return out;
}

export function liveCueTags(s: WindowSegment): string[] {
  const cue = s.item.kind === 'live' ? s.segment.cue : undefined;
  if (!cue) return [];
  if (cue.kind === 'out') return outTags(cue, s.pdtMs);
  if (cue.kind === 'cont') return contTags(cue, s.pdtMs);
  return inTags(cue, s.pdtMs);
}
