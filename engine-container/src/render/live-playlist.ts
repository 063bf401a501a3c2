/**
 * A live rendition's playlist as the bytes a response sends, built from its last render's bytes. Between
 * two renders a live window mostly slides: it drops segments at its head and lists new ones at its live
 * edge, and its header's sequence numbers move. The segments both list keep their lines, in order, so
 * the new bytes are the new header, the first segment's lead (a player may join there: key and map
 * repeated), one copy of the kept run of the last bytes, and the new segments rendered: no string built,
 * flattened and encoded again for every segment of the window. Anything else (a log change that alters
 * the listed segments, a window that starts or stops listing fMP4) renders the whole playlist
 * (media-playlist.ts), which it equals byte for byte (test/engine-media/live-playlist.test.ts). Holds the last
 * render only: its bytes, its segments and where each one's lines are in the bytes.
 */
import type { PlaylistWindow, WindowSegment } from '../playout/window';
import { fmp4Count, playlistHeader, renderMediaPlaylist, segmentLead, segmentsText } from './media-playlist';
import { RenderArena } from './render-arena';

/** The same segment at the same place in the log: its lines are the same in any window listing both. */
const sameSegment = (a: WindowSegment, b: WindowSegment): boolean =>
  a === b ||
  (a.segment === b.segment &&
    a.item === b.item &&
    a.position === b.position &&
    a.pdtMs === b.pdtMs &&
    a.durationMs === b.durationMs &&
    a.discontinuity === b.discontinuity &&
    a.previousItem === b.previousItem &&
    a.itemFirst === b.itemFirst);

export class LivePlaylist {
  /** Where renders are written (render-arena.ts): the last render's bytes are never overwritten. */
  readonly arena = new RenderArena();
  private bytes: Buffer | undefined;
  private win: PlaylistWindow | undefined;
  /** Segments of the last render that are fMP4, and so whether it gave TS items maps (media-playlist.ts). */
  private fmp4 = 0;
  private mixed = false;
  /** Where segment n's lead and its block begin in `bytes` (at 2n and 2n + 1); reused render to render. */
  private starts: Uint32Array = new Uint32Array(0);
  private spare: Uint32Array = new Uint32Array(0);
  /** How the last render was built: its bytes kept as they were, slid from the last ones, or whole. */
  built: 'kept' | 'slid' | 'whole' = 'whole';

  /** The window's playlist: the last render's bytes (the same object) when it lists the same, else new bytes. */
  render(win: PlaylistWindow): Buffer {
    const last = this.win;
    const segments = win.segments;
    // The kept run: the window's first `kept` segments are the last render's from `k` on.
    const k = last ? win.mediaSequence - last.mediaSequence : -1;
    let kept = 0;
    if (last && this.bytes && k >= 0)
      while (
        kept < segments.length &&
        k + kept < last.segments.length &&
        sameSegment(last.segments[k + kept]!, segments[kept]!)
      )
        kept++;
    if (kept === 0) return this.full(win);
    const old = this.bytes!;
    const oldCount = last!.segments.length;
    // fMP4 segments listed, counted from the last render's: the segments themselves stay untouched.
    const fmp4 =
      this.fmp4 -
      fmp4Count(last!.segments, 0, k) -
      fmp4Count(last!.segments, k + kept, oldCount) +
      fmp4Count(segments, kept, segments.length);
    const mixed = fmp4 > 0;
    if (mixed !== this.mixed) return this.full(win);
    if (
      k === 0 &&
      kept === oldCount &&
      kept === segments.length &&
      win.discontinuitySequence === last!.discontinuitySequence &&
      win.targetDurationS === last!.targetDurationS
    ) {
      this.win = win;
      this.built = 'kept';
      return old;
    }
    const from = this.starts[2 * k + 1]!;
    const to = k + kept < oldCount ? this.starts[2 * (k + kept)]! : old.length;
    const head = playlistHeader(win);
    const lead = head + segmentLead(segments, 0, mixed);
    const runAt = lead.length;
    const tailAt = runAt + to - from;
    this.built = 'slid';
    const next = this.spareFor(segments.length);
    const tail = segmentsText(segments, kept, mixed, tailAt, next);
    const leadBytes = Buffer.byteLength(lead);
    const tailBytes = Buffer.byteLength(tail);
    const out = this.arena.take(leadBytes + (to - from) + tailBytes);
    out.write(lead, 0, 'utf8');
    old.copy(out, leadBytes, from, to);
    out.write(tail, leadBytes + to - from, 'utf8');
    // Offsets are counted in characters: they are bytes only while every line is ASCII.
    if (leadBytes !== lead.length || tailBytes !== tail.length) return this.forget(out);
    next[0] = head.length;
    next[1] = runAt;
    const shift = runAt - from;
    for (let n = 1; n < kept; n++) {
      next[2 * n] = this.starts[2 * (k + n)]! + shift;
      next[2 * n + 1] = this.starts[2 * (k + n) + 1]! + shift;
    }
    return this.keep(win, fmp4, out, next);
  }

  private full(win: PlaylistWindow): Buffer {
    this.built = 'whole';
    const fmp4 = fmp4Count(win.segments, 0, win.segments.length);
    const next = this.spareFor(win.segments.length);
    const text = renderMediaPlaylist(win, next, fmp4 > 0);
    const length = Buffer.byteLength(text);
    let out = this.arena.take(length);
    out.write(text, 0, 'utf8');
    // A new log version often leaves the playlist as it was (an item appended ahead): the same bytes.
    if (this.bytes?.equals(out)) {
      this.arena.giveBack();
      out = this.bytes;
    }
    return length === text.length ? this.keep(win, fmp4, out, next) : this.forget(out);
  }

  private spareFor(count: number): Uint32Array {
    if (this.spare.length < 2 * count) this.spare = new Uint32Array(2 * count + 8);
    return this.spare;
  }

  private keep(win: PlaylistWindow, fmp4: number, bytes: Buffer, starts: Uint32Array): Buffer {
    this.spare = this.starts;
    this.starts = starts;
    this.win = win;
    this.fmp4 = fmp4;
    this.mixed = fmp4 > 0;
    this.bytes = bytes;
    return bytes;
  }

  /** Bytes whose offsets are not known: the next render is a whole one. */
  private forget(bytes: Buffer): Buffer {
    this.win = undefined;
    this.bytes = undefined;
    return bytes;
  }

  /** Segments held: those of the last render. */
  get held(): number {
    return this.win?.segments.length ?? 0;
  }
}
