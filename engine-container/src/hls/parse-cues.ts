/**
 * Ad cues in a media playlist, as packagers write them, read into one cue per segment: the
 * EXT-X-CUE-OUT / EXT-X-CUE-OUT-CONT / EXT-X-CUE-IN family (AWS Elemental, Wowza, MediaPackage:
 * `CUE-OUT:30`, `CUE-OUT:DURATION=30`, `CUE-OUT-CONT:ElapsedTime=4,Duration=30` or `4/30`) and
 * EXT-X-DATERANGE with SCTE35-OUT / SCTE35-IN (RFC 8216 §4.3.2.7.1, Unified Streaming). A cue applies
 * to the segment after it. Everything kept is a number, a hex string or a sanitised ID: a source's text
 * is hostile and is never copied into our playlists as it came.
 */
import { attr, numberAttr, parseAttributes, quotedSafe } from './attributes';

export interface SegmentCue {
  /** 'out': a break starts with this segment; 'cont': inside a break; 'in': the break ended before it. */
  kind: 'out' | 'cont' | 'in';
  /** The break's EXT-X-DATERANGE ID (the source's, else set by whoever places the cue). */
  id?: string;
  /** The break's planned duration. */
  durationMs?: number;
  /** 'cont': time since the break started, as the source said. */
  elapsedMs?: number;
  /** The source's splice_info_section (hex, 0x…) for this OUT or IN. */
  scte35?: string;
  /** Where the break started on the channel's clock (Unix ms): the EXT-X-DATERANGE's START-DATE. */
  startMs?: number;
}

const HEX = /^0x[0-9A-Fa-f]{2,4096}$/;
const ms = (seconds: number | undefined): number | undefined =>
  seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;

const definedOnly = (cue: SegmentCue): SegmentCue =>
  Object.fromEntries(Object.entries(cue).filter(([, v]) => v !== undefined)) as unknown as SegmentCue;

/** `30`, `DURATION=30` or nothing. */
function cueOutDuration(value: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) return ms(Number(value));
  return ms(numberAttr(parseAttributes(value), 'DURATION'));
}

/** `ElapsedTime=4,Duration=30` or `4/30`. */
function cueCont(value: string): SegmentCue {
  const slash = value.match(/^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/);
  if (slash) return { kind: 'cont', elapsedMs: ms(Number(slash[1])), durationMs: ms(Number(slash[2])) };
  const list = parseAttributes(
    value.replace(/\belapsedtime=/i, 'ELAPSEDTIME=').replace(/\bduration=/i, 'DURATION='),
  );
  return {
    kind: 'cont',
    elapsedMs: ms(numberAttr(list, 'ELAPSEDTIME')),
    durationMs: ms(numberAttr(list, 'DURATION')),
  };
}

function dateRange(value: string): SegmentCue | undefined {
  const list = parseAttributes(value);
  const id = attr(list, 'ID');
  const out = attr(list, 'SCTE35-OUT');
  const into = attr(list, 'SCTE35-IN');
  const hex = (v: string | undefined) =>
    v && HEX.test(v) ? v.toUpperCase().replace(/^0X/, '0x') : undefined;
  const base = { id: id ? quotedSafe(id).slice(0, 200) : undefined };
  if (out !== undefined)
    return {
      kind: 'out',
      ...base,
      scte35: hex(out),
      durationMs: ms(numberAttr(list, 'PLANNED-DURATION') ?? numberAttr(list, 'DURATION')),
    };
  if (into !== undefined) return { kind: 'in', ...base, scte35: hex(into) };
  return undefined;
}

/** The cue a tag line says, or undefined when the line is no cue. */
export function readCueTag(line: string): SegmentCue | undefined {
  if (line === '#EXT-X-CUE-IN' || line.startsWith('#EXT-X-CUE-IN:')) return { kind: 'in' };
  if (line.startsWith('#EXT-X-CUE-OUT-CONT')) return definedOnly(cueCont(line.slice(20)));
  if (line === '#EXT-X-CUE-OUT' || line.startsWith('#EXT-X-CUE-OUT:'))
    return definedOnly({ kind: 'out', durationMs: cueOutDuration(line.slice(15)) });
  if (line.startsWith('#EXT-X-DATERANGE:')) {
    const cue = dateRange(line.slice(17));
    return cue ? definedOnly(cue) : undefined;
  }
  return undefined;
}

/** Two cues before one segment (a CUE-OUT and its DATERANGE): one cue, the stronger kind, all fields. */
export function mergeCues(a: SegmentCue | undefined, b: SegmentCue): SegmentCue {
  if (!a) return b;
  const rank = { cont: 0, in: 1, out: 2 } as const;
  const kind = rank[b.kind] >= rank[a.kind] ? b.kind : a.kind;
  return { ...a, ...b, kind };
}
