/**
 * Rendered media playlists per rendition. A window only changes when a segment ends or the log
 * changes, so a body stays valid from when it was computed until the window's nextChangeMs, for the
 * same log version: most requests are a map lookup. Per rendition it holds one body and the segment
 * blocks of the last render (SegmentBlocks): bounded by the ladder and the window, whatever the load.
 */
import { SegmentBlocks } from '../render/media-playlist';

interface Entry {
  version: number;
  fromMs: number;
  untilMs: number;
  body: string;
}

export class PlaylistCache {
  private readonly entries = new Map<string, Entry>();
  private readonly blocks = new Map<string, SegmentBlocks>();

  get(key: string, version: number, nowMs: number): string | undefined {
    const e = this.entries.get(key);
    return e && e.version === version && nowMs >= e.fromMs && nowMs < e.untilMs ? e.body : undefined;
  }

  /** Updates the rendition's entry in place: a channel re-renders every segment, and allocates nothing for it. */
  set(key: string, version: number, fromMs: number, untilMs: number, body: string): void {
    const e = this.entries.get(key);
    if (!e) {
      this.entries.set(key, { version, fromMs, untilMs, body });
      return;
    }
    e.version = version;
    e.fromMs = fromMs;
    e.untilMs = untilMs;
    e.body = body;
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
