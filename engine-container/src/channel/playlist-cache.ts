/**
 * Rendered media playlists per rendition: the one cache of a live playlist, the bytes it is sent as.
 * A window only changes when a segment ends or the log changes, so a playlist stays valid from when it
 * was computed until the window's nextChangeMs, for the same log version: most requests are a map
 * lookup. Per rendition it holds one playlist and what its next render is built from (LivePlaylist: the
 * last render's bytes and segments): bounded by the ladder and the window, whatever the load.
 */
import { LivePlaylist } from '../render/live-playlist';

/** A rendered media playlist: its UTF-8 bytes as a response sends them, and its text. Never changed. */
export interface RenderedPlaylist {
  readonly bytes: Buffer;
  /** Decoded from the bytes when asked (tests, the awaited text path): a request sends the bytes. */
  readonly body: string;
}

class Rendered implements RenderedPlaylist {
  constructor(readonly bytes: Buffer) {}
  get body(): string {
    return this.bytes.toString('utf8');
  }
}

interface Entry {
  version: number;
  fromMs: number;
  untilMs: number;
  playlist: RenderedPlaylist;
}

export class PlaylistCache {
  private readonly entries = new Map<string, Entry>();
  private readonly renders = new Map<string, LivePlaylist>();

  get(key: string, version: number, nowMs: number): RenderedPlaylist | undefined {
    const e = this.entries.get(key);
    return e && e.version === version && nowMs >= e.fromMs && nowMs < e.untilMs ? e.playlist : undefined;
  }

  /**
   * Keeps a render of the rendition. Updates its entry in place (a channel re-renders every segment);
   * the playlist itself is a new object, so one already handed out stays as it was.
   */
  set(key: string, version: number, fromMs: number, untilMs: number, bytes: Buffer): RenderedPlaylist {
    const e = this.entries.get(key);
    // A new log version often leaves the window as it was (an item appended ahead): then the renderer
    // hands back its last bytes, the same object (LivePlaylist).
    const playlist = e?.playlist.bytes === bytes ? e.playlist : new Rendered(bytes);
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

  /** The rendition's live playlist renderer, holding its last render for the next one. */
  rendererOf(key: string): LivePlaylist {
    let live = this.renders.get(key);
    if (!live) {
      live = new LivePlaylist();
      this.renders.set(key, live);
    }
    return live;
  }

  clear(): void {
    this.entries.clear();
    this.renders.clear();
  }
}
