/**
 * The RFC 8216 live rules (test/support/live-rules.ts, through hls-client.ts's poller) held on every
 * media playlist of the channel for as long as the soak runs: each playlist is reloaded every target
 * duration, each reload checked alone and against the one before; broken rules are counted by rule
 * until the next take().
 */
import { checkLivePlaylistRules, listMediaPlaylists } from '../../test/support/hls-client';
import { parseMediaPlaylist } from '../../test/support/hls-playlist';

/** Reloads per round: rounds are checked against each other only through these. */
const RELOADS_PER_ROUND = 10;

export interface RulesWatch {
  /** Violations by rule since the last call. */
  take(): Record<string, number>;
  stop(): void;
}

export async function watchPlaylistRules(masterUrl: string): Promise<RulesWatch> {
  let counts: Record<string, number> = {};
  let stopped = false;
  const note = (rule: string) => {
    counts[rule] = (counts[rule] ?? 0) + 1;
  };
  const urls = await listMediaPlaylists(masterUrl).catch(() => [masterUrl]);
  const watch = async (url: string) => {
    const first = await fetch(url)
      .then((r) => r.text())
      .catch(() => undefined);
    const targetDurationS = first ? parseMediaPlaylist(first).targetDuration : 2;
    while (!stopped) {
      const violations = await checkLivePlaylistRules(url, {
        reloads: RELOADS_PER_ROUND,
        intervalMs: targetDurationS * 1000,
      }).catch((e: unknown) => [{ rule: 'fetch-failed', message: String(e) }]);
      for (const v of violations) note(v.rule);
    }
  };
  for (const url of urls) void watch(url);
  return {
    take() {
      const out = counts;
      counts = {};
      return out;
    },
    stop() {
      stopped = true;
    },
  };
}
