/**
 * The VODs a channel's log plays: in the cache before its playlists render, and held there while the
 * log plays them. Items appended by another instance, or read back after a restart, are checked once
 * each: O(new items) per advance. Items checked once stay loaded: the channel holds its tail's VODs
 * (VodCache.hold), and the cache's sweep never evicts a VOD held.
 */
import type { Logger } from '../../../core/logger';
import type { PlayoutItem } from '../playout/item';
import type { VodCache } from '../vod/vod-cache';
import type { LogTail } from './log-tail';

/** The distinct VODs of the items, in order of first appearance (a live item plays no VOD). */
function vodUris(items: readonly PlayoutItem[]): string[] {
  const uris: string[] = [];
  for (const item of items) if (!item.live && !uris.includes(item.uri)) uris.push(item.uri);
  return uris;
}

/** Whether `uris` are exactly the items' VODs (no list made: a loop's tail is one VOD, checked each run). */
function areVodsOf(uris: readonly string[], items: readonly PlayoutItem[]): boolean {
  for (const item of items) if (!item.live && !uris.includes(item.uri)) return false;
  return uris.every((uri) => items.some((item) => !item.live && item.uri === uri));
}

export class TailVods {
  /** Items up to this seq have their VOD in the cache: each load only checks newer ones. */
  private loadedThroughSeq = -1;
  private held: readonly string[] = [];
  private heldVersion = -1;

  constructor(
    private readonly tail: LogTail,
    private readonly vods: VodCache,
    private readonly log: Logger,
    private readonly channelId: string,
  ) {}

  /** Loads the VODs of the items not checked yet; a failed load is logged and retried by the next call. */
  async load(): Promise<void> {
    const { items } = this.tail;
    let checked = items.length;
    while (checked > 0 && items[checked - 1]!.seq > this.loadedThroughSeq) checked--;
    if (checked === items.length) return;
    let complete = true;
    for (const item of items.slice(checked)) {
      // A live item carries its own segments (live/live-track.ts): nothing to load.
      if (item.live || this.vods.get(item.uri)) continue;
      await this.vods.load(item.uri).catch((err: unknown) => {
        complete = false;
        this.log.error('VOD of a logged item cannot be loaded', {
          channelId: this.channelId,
          uri: item.uri,
          err,
        });
      });
    }
    if (complete) this.loadedThroughSeq = items[items.length - 1]!.seq;
  }

  /** Whether items were added since the last load. */
  get unchecked(): boolean {
    return this.tail.lastSeq > this.loadedThroughSeq;
  }

  /**
   * Holds the VODs the tail plays now and releases those it no longer plays (after each run: only when
   * its items changed); releases them all once the tail is closed (the channel removed).
   */
  hold(): void {
    const { tail, vods } = this;
    if (tail.version === this.heldVersion && !tail.closed) return;
    this.heldVersion = tail.version;
    const items = tail.closed ? [] : tail.items;
    if (areVodsOf(this.held, items)) return;
    const uris = vodUris(items);
    for (const uri of uris) if (!this.held.includes(uri)) vods.hold(uri);
    for (const uri of this.held) if (!uris.includes(uri)) vods.release(uri);
    this.held = uris;
  }
}
