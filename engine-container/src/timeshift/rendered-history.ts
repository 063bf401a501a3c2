/**
 * One rendition's time-shifted segments, rendered once and shared by every request on it
 * (docs/timeshift.md, "Cost"). A segment's lines in a media playlist depend only on it and the segment
 * before it (its discontinuity, key and map lines; render/media-playlist.ts), so any window's playlist is
 * its first segment rendered as a window's first, then the lines of the others as they are here: a
 * request joins slices of these chunks, whatever its `start`, and the live edge's new segments are
 * rendered once, when they end, for every request to come. Segments are kept in chunks of up to
 * CHUNK_CHARS, so a day of them is a few dozen slices.
 *
 * The one exception is a rendition listing both fMP4 and TS segments: a window's TS segments get a map
 * of their own only when that window lists fMP4 (`mixed` in render/media-playlist.ts), so windows of it
 * are not slices of one text; `mixed` says so and those windows are rendered whole.
 */
import type { WindowSegment } from '../playout/window';
import { renderMediaPlaylist } from '../render/media-playlist';
import { isTsSegment } from '../render/ts-map';
import type { TimeshiftWindow } from './timeshift-window';

/** A chunk is appended to until it holds this many characters; then the next one starts. */
export const CHUNK_CHARS = 64 * 1024;
/** What a segment costs beyond its text: its offset and its PDT (two numbers in arrays). */
const SEGMENT_BYTES = 16;

interface Chunk {
  /** Media sequence number of its first segment. */
  first: number;
  body: string;
  /** Where each of its segments' lines start in body. */
  starts: number[];
}

export class RenderedHistory {
  private chunks: Chunk[] = [];
  /** PDT of each segment, from firstIndex on. */
  private pdts: number[] = [];
  private withMap = false;
  private tsWithoutMap = false;
  /** The newest segment: where the next extension starts. */
  last: WindowSegment;

  /** `generation`: the channel history's (channel-history.ts) whose items these segments are. */
  constructor(
    readonly generation: number,
    win: TimeshiftWindow,
  ) {
    this.last = win.segments[0]!;
    this.append(win, 0);
  }

  get firstIndex(): number {
    return this.chunks[0]!.first;
  }

  get lastIndex(): number {
    return this.last.index;
  }

  get firstPdtMs(): number {
    return this.pdts[0]!;
  }

  /** PDT of segment `index`, undefined when not held. */
  pdtOf(index: number): number | undefined {
    return this.pdts[index - this.firstIndex];
  }

  /** Lists both fMP4 and TS segments: windows of it cannot be slices of one text (see above). */
  get mixed(): boolean {
    return this.withMap && this.tsWithoutMap;
  }

  get bytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.body.length;
    return n + this.pdts.length * SEGMENT_BYTES;
  }

  /**
   * Appends the segments of `win` that follow the last held; `win` starts with that last one (its lines
   * there are a window's first, not what follows). False when it does not: the log changed under it.
   */
  extend(win: TimeshiftWindow): boolean {
    const first = win.segments[0];
    if (!first || first.index !== this.last.index || first.pdtMs !== this.last.pdtMs) return false;
    if (win.segments.length > 1) this.append(win, 1);
    return true;
  }

  /** The newest segment that starts before toMs (the last of a window ending there). */
  lastBefore(toMs: number): number {
    if (toMs > this.last.pdtMs) return this.last.index;
    let lo = 0;
    let hi = this.pdts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.pdts[mid]! < toMs) lo = mid;
      else hi = mid - 1;
    }
    return this.firstIndex + lo;
  }

  /**
   * The lines of segments from..to (media sequence numbers, both held, inclusive): a concatenation of
   * slices of the chunks, copied once, when the answer is written.
   */
  lines(from: number, to: number): string {
    let lines = '';
    let c = this.chunkOf(from);
    for (let n = from; n <= to; c++) {
      const chunk = this.chunks[c]!;
      const end = Math.min(to, chunk.first + chunk.starts.length - 1);
      const startAt = chunk.starts[n - chunk.first]!;
      const endAt =
        end + 1 - chunk.first < chunk.starts.length
          ? chunk.starts[end + 1 - chunk.first]!
          : chunk.body.length;
      lines += chunk.body.slice(startAt, endAt);
      n = end + 1;
    }
    return lines;
  }

  /** Forgets the chunks of segments that began before horizonMs, but the one on air then. */
  forgetBefore(horizonMs: number): void {
    let drop = 0;
    while (drop + 1 < this.chunks.length && this.pdtOf(this.chunks[drop + 1]!.first)! <= horizonMs) drop++;
    if (drop === 0) return;
    const firstKept = this.chunks[drop]!.first;
    this.pdts = this.pdts.slice(firstKept - this.firstIndex);
    this.chunks = this.chunks.slice(drop);
  }

  private chunkOf(index: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chunks[mid]!.first <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Renders the window and keeps the lines of its segments from `skip` on. */
  private append(win: TimeshiftWindow, skip: number): void {
    const body = renderMediaPlaylist(win);
    // The segments' lines follow the header; each segment's end with its URI, the one line not a tag.
    let at = renderMediaPlaylist({ ...win, segments: [] }).length;
    const starts: number[] = [];
    for (let n = 0; n < win.segments.length; n++) {
      const s = win.segments[n]!;
      if (n >= skip) {
        starts.push(at);
        this.pdts.push(s.pdtMs);
        if (s.segment.map) this.withMap = true;
        else if (isTsSegment(s.segment)) this.tsWithoutMap = true;
      }
      while (body.charCodeAt(at) === 35 /* # */) at = body.indexOf('\n', at) + 1;
      at = body.indexOf('\n', at) + 1;
    }
    this.last = win.segments[win.segments.length - 1]!;
    const endOf = (k: number) => (k + 1 < starts.length ? starts[k + 1]! : at);
    for (let k = 0; k < starts.length; ) {
      let tail = this.chunks[this.chunks.length - 1];
      if (!tail || tail.body.length >= CHUNK_CHARS) {
        tail = { first: win.segments[skip + k]!.index, body: '', starts: [] };
        this.chunks.push(tail);
      }
      // The segments from k that fit in the chunk (at least one).
      const room = CHUNK_CHARS - tail.body.length;
      let j = k + 1;
      while (j < starts.length && endOf(j) - starts[k]! <= room) j++;
      const shift = tail.body.length - starts[k]!;
      for (let m = k; m < j; m++) tail.starts.push(starts[m]! + shift);
      tail.body += body.slice(starts[k]!, endOf(j - 1));
      k = j;
    }
  }
}
