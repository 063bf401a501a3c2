/**
 * Rendered media playlists per rendition. A window only changes when a segment ends or the log
 * changes, so a body stays valid from when it was computed until the window's nextChangeMs, for the
 * same log version: most requests are a map lookup.
 */
interface Entry {
  version: number;
  fromMs: number;
  untilMs: number;
  body: string;
}

export class PlaylistCache {
  private readonly entries = new Map<string, Entry>();

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

  clear(): void {
    this.entries.clear();
  }
}
