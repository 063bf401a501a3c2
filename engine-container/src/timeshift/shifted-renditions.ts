/**
 * A rendition's time-shifted media playlist, from its rendered history (rendered-history.ts), shared by
 * every request on it: a request renders its first segment, joins the held lines of the others, and
 * renders only the segments that ended since the last request. Any `start` within one segment gives the
 * same playlist, and a day-long window costs a join, not a render (docs/timeshift.md, "Cost"). The
 * same bytes as rendering the window whole (`renderWhole`), which is what a window the history cannot
 * give gets: nothing aired yet since its start, or a rendition mixing fMP4 and TS.
 */
import type { PlayoutItem } from '../playout/item';
import type { TrackResolver } from '../playout/window';
import type { HistoryCache } from './history-cache';
import { RenderedHistory } from './rendered-history';
import { shiftedPlaylist } from './shifted-playlist';
import { computeTimeshiftWindow } from './timeshift-window';

export interface RenditionsDeps {
  resolve: TrackResolver;
  clock: () => number;
  retentionMs: number;
  cache: HistoryCache;
  /** Loads the VODs of items (before a window over many of them is computed). */
  loadVods: (items: readonly PlayoutItem[]) => Promise<void>;
}

export interface ShiftedRequest {
  channelId: string;
  key: string;
  /** The channel's log from the item before the one on air at fromMs (channel-history.ts). */
  items: PlayoutItem[];
  fromMs: number;
  toMs?: number;
  /** The log from the item before the one on air at an instant. */
  read: (fromMs: number) => Promise<PlayoutItem[]>;
  /** The channel history's generation (it changes when the log was replaced under it). */
  generation: () => number;
}

/** The window rendered whole: what the rendered history gives, without it. */
export async function renderWhole(
  deps: RenditionsDeps,
  items: PlayoutItem[],
  key: string,
  fromMs: number,
  toMs?: number,
): Promise<string> {
  await deps.loadVods(items);
  const win = computeTimeshiftWindow(items, deps.resolve, key, fromMs, toMs ?? Infinity, deps.clock());
  return shiftedPlaylist(win, toMs !== undefined && win.complete);
}

export async function shiftedMedia(deps: RenditionsDeps, req: ShiftedRequest): Promise<string> {
  const { resolve, clock, cache, retentionMs } = deps;
  const { channelId, key, items, fromMs, toMs } = req;
  const nowMs = clock();
  // Its first segment, rendered as a window's first: the one on air at fromMs, or (fromMs before the
  // log, or in a gap between items) the next item's first.
  const firstUntil = (toMs: number) => computeTimeshiftWindow(items, resolve, key, fromMs, toMs, nowMs);
  let first = firstUntil(fromMs + 1);
  const next =
    first.segments.length === 0 && first.complete ? items.find((i) => i.startMs > fromMs) : undefined;
  if (next) first = firstUntil(next.startMs + 1);
  const a = first.segments[0];
  // (A range that ends before the next item lists nothing: rendered whole, it costs nothing.)
  if (!a || first.segments.length > 1 || a.pdtMs >= (toMs ?? Infinity))
    return renderWhole(deps, items, key, fromMs, toMs);
  let history = cache.get(channelId, key);
  let near: PlayoutItem[] = items;
  if (history && history.generation === req.generation() && a.index >= history.firstIndex) {
    // The segments that ended since the history's last.
    near = await req.read(history.last.pdtMs);
    const since = computeTimeshiftWindow(near, resolve, key, history.last.pdtMs, Infinity, nowMs);
    if (history.generation !== req.generation() || !history.extend(since)) history = undefined;
  } else if (history?.generation !== req.generation()) history = undefined;
  if (!history || a.index < history.firstIndex) {
    // Built from this start, or (for an older start than it holds) back to twice its age: an attacker
    // walking `start` back segment by segment causes a few builds, not one per segment.
    const oldest = history?.firstPdtMs;
    const startMs =
      oldest === undefined
        ? fromMs
        : Math.max(nowMs - retentionMs, Math.min(fromMs, oldest - (nowMs - oldest)));
    near = startMs < fromMs ? await req.read(startMs) : items;
    await deps.loadVods(near);
    const win = computeTimeshiftWindow(near, resolve, key, startMs, Infinity, nowMs);
    if (win.segments.length === 0) return renderWhole(deps, items, key, fromMs, toMs);
    history = new RenderedHistory(req.generation(), win);
  }
  history.forgetBefore(nowMs - retentionMs);
  cache.set(channelId, key, history);
  if (history.mixed || history.pdtOf(a.index) !== a.pdtMs) return renderWhole(deps, items, key, fromMs, toMs);
  const b = history.lastBefore(toMs ?? Infinity);
  // Complete (the range has aired) when a later segment is held; at the edge, as the whole window says.
  const ended =
    toMs !== undefined &&
    (b < history.lastIndex ||
      computeTimeshiftWindow(near, resolve, key, history.last.pdtMs, toMs, nowMs).complete);
  return shiftedPlaylist(first, ended, b > a.index ? history.lines(a.index + 1, b) : '');
}
