/**
 * Rendered media playlists per rendition: the one cache of a live playlist, its text and the bytes it
 * is sent as. A window only changes when a segment ends or the log changes, so a body stays valid from
 * when it was computed until the window's nextChangeMs, for the same log version: most requests are a
 * map lookup, and send bytes encoded once per render. Per rendition it holds one playlist and the
 * segment blocks of the last render (SegmentBlocks): bounded by the ladder and the window, whatever
 * the load.
 */
import { SegmentBlocks } from '../render/media-playlist';

/** A rendered media playlist: its text, and its UTF-8 bytes as a response sends them. Never changed. */
export interface RenderedPlaylist {
  readonly body: string;
  readonly bytes: Buffer;
}

export function renderedPlaylist(body: string): RenderedPlaylist {
  // Its own memory, not a slice of node's shared 8 KB pool: a kept slice would keep its whole slab.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body, 'utf8'));
  bytes.write(body, 'utf8');
  return { body, bytes };
}

interface Entry {
  version: number;
  fromMs: number;
  untilMs: number;
  playlist: RenderedPlaylist;
}

export class PlaylistCache {
  private readonly entries = new Map<string, Entry>();
  private readonly blocks = new Map<string, SegmentBlocks>();

  get(key: string, version: number, nowMs: number): RenderedPlaylist | undefined {
    const e = this.entries.get(key);
    return e && e.version === version && nowMs >= e.fromMs && nowMs < e.untilMs ? e.playlist : undefined;
  }

  /**
   * Keeps a render of the rendition, encoded once here. Updates its entry in place (a channel
   * re-renders every segment); the playlist itself is a new object, so one already handed out stays
   * as it was.
   */
  set(key: string, version: number, fromMs: number, untilMs: number, body: string): RenderedPlaylist {
    const e = this.entries.get(key);
    // A new log version often leaves the window as it was (an item appended ahead): same bytes.
    const playlist = e && e.playlist.body === body ? e.playlist : renderedPlaylist(body);
    if (!e) {
      this.entries.set(key, { version, fromMs, untilMs, playlist });
      return playlist;
    }
    e.version = version;
    e.fromMs = fromMs;
    e.untilMs = untilMs;
    e.playlist = playlist;
    return playlist;
  }

  /** The rendition's segment blocks from its last render, for the next one. */
  blocksOf(key: string): SegmentBlocks {
    let blocks = this.blocks.get(key);
    if (!blocks) {
      blocks = new SegmentBlocks();
      this.blocks.set(key, blocks);
    }
    return blocks;
  }

  clear(): void {
    this.entries.clear();
    this.blocks.clear();
  }
}
