/**
 * Follows the channel's first video playlist (reloaded every second) and reports each seam as it
 * appears at the live edge (seams.ts): the player crosses it about its latency later.
 */
import { parseMasterPlaylist, parseMediaPlaylist } from '../../../test/support/hls-playlist';
import { newSeams, type Seam, type SeamState, type SegmentSource } from './seams';

const RELOAD_MS = 1000;

export interface SeamWatch {
  /** Every seam seen so far. */
  seams(): readonly Seam[];
  stop(): void;
}

export async function watchSeams(
  masterUrl: string,
  sources: () => readonly SegmentSource[],
  onSeam: (seam: Seam) => void,
): Promise<SeamWatch> {
  const master = parseMasterPlaylist(await (await fetch(masterUrl)).text());
  const mediaUrl = new URL(master.variants[0]!.uri, masterUrl).href;
  const seen: Seam[] = [];
  let state: SeamState = { lastMsn: -1 };
  let stopped = false;
  const reload = async () => {
    const text = await (await fetch(mediaUrl)).text();
    const segments = parseMediaPlaylist(text).segments.map((s) => ({
      ...s,
      uri: new URL(s.uri, mediaUrl).href,
    }));
    const first = state.lastKind === undefined;
    const next = newSeams(state, segments, sources());
    state = next.state;
    // The first reload lists seams from before the watch: not crossed while it watched.
    if (first) return;
    for (const seam of next.seams) {
      seen.push(seam);
      onSeam(seam);
    }
  };
  void (async () => {
    while (!stopped) {
      // A failed reload is the soak's business (its rules count it); the next one catches up.
      await reload().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, RELOAD_MS));
    }
  })();
  return {
    seams: () => seen,
    stop() {
      stopped = true;
    },
  };
}
