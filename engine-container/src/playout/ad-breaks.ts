/**
 * Where a VOD's ad breaks fall in what an item plays, pure. A programme is the VOD's content with its
 * ads: spliced, each break cuts the content and its ad plays there, so the programme is longer than the
 * content by the ads; as interstitials the content is not cut and the programme is the content, with
 * each break a point the player pauses at. An item plays the programme from `startMs` for
 * `durationMs` (both in programme time), as pieces: runs of content, and spliced ads (or the part of one
 * an item joined mid-way). A content piece that starts at an interstitial break names it.
 */

export interface PlacedBreak {
  /** Where in the content the break falls (ms, a segment boundary of the content). */
  offsetMs: number;
  /** How long its ad plays when spliced (ms, whole ad segments). */
  durationMs: number;
}

export type Piece =
  | { kind: 'content'; offsetMs: number; durationMs: number; interstitial?: number }
  | { kind: 'ad'; breakIndex: number; offsetMs: number; durationMs: number };

interface Span {
  fromMs: number;
  toMs: number;
  piece: (offsetMs: number, durationMs: number) => Piece;
}

/** The programme as consecutive spans (the last content span open-ended), breaks in content order. */
function spliced(breaks: readonly PlacedBreak[]): Span[] {
  const spans: Span[] = [];
  let at = 0;
  let content = 0;
  breaks.forEach((b, breakIndex) => {
    const runMs = b.offsetMs - content;
    const contentFrom = content;
    if (runMs > 0)
      spans.push({
        fromMs: at,
        toMs: at + runMs,
        piece: (o, d) => ({ kind: 'content', offsetMs: contentFrom + o, durationMs: d }),
      });
    at += runMs;
    spans.push({
      fromMs: at,
      toMs: at + b.durationMs,
      piece: (o, d) => ({ kind: 'ad', breakIndex, offsetMs: o, durationMs: d }),
    });
    at += b.durationMs;
    content = b.offsetMs;
  });
  const last = content;
  spans.push({
    fromMs: at,
    toMs: Number.POSITIVE_INFINITY,
    piece: (o, d) => ({ kind: 'content', offsetMs: last + o, durationMs: d }),
  });
  return spans;
}

/** The pieces of [startMs, startMs + durationMs) of a programme with spliced breaks. */
export function splicedPieces(breaks: readonly PlacedBreak[], startMs: number, durationMs: number): Piece[] {
  const endMs = startMs + durationMs;
  const pieces: Piece[] = [];
  for (const span of spliced(breaks)) {
    const from = Math.max(span.fromMs, startMs);
    const to = Math.min(span.toMs, endMs);
    if (to > from) pieces.push(span.piece(from - span.fromMs, to - from));
  }
  return pieces;
}

/**
 * The pieces of [startMs, startMs + durationMs) of content with interstitial breaks: the content cut
 * only where a break falls inside it (or at its start), each later piece naming its break. A break
 * before startMs has passed.
 */
export function interstitialPieces(
  breaks: readonly PlacedBreak[],
  startMs: number,
  durationMs: number,
): Piece[] {
  const endMs = startMs + durationMs;
  const pieces: Piece[] = [];
  let from = startMs;
  let named: number | undefined;
  breaks.forEach((b, index) => {
    if (b.offsetMs < startMs || b.offsetMs >= endMs) return;
    if (b.offsetMs > from) {
      pieces.push(contentPiece(from, b.offsetMs - from, named));
      from = b.offsetMs;
    }
    named = index;
  });
  pieces.push(contentPiece(from, endMs - from, named));
  return pieces;
}

const contentPiece = (offsetMs: number, durationMs: number, interstitial: number | undefined): Piece =>
  interstitial === undefined
    ? { kind: 'content', offsetMs, durationMs }
    : { kind: 'content', offsetMs, durationMs, interstitial };
