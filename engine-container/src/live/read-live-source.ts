/**
 * One read of a LIVE event's source for the mixer (live-mixer.ts): the snapshot, or why it cannot be
 * read, as data. A read may take what the caller can afford (how long the log still leads the clock),
 * so a source that hangs is given up before players run out; never more than a VOD load's timeout,
 * and never less than MIN_READ_TIMEOUT_MS (a healthy source must have time to answer).
 */
import type { EngineConfig } from '../config';
import type { ScheduleEvent } from '../types';
import { fetchLiveSource, type LiveSnapshot, type LiveSourceError, toLiveError } from './live-source';

const MIN_READ_TIMEOUT_MS = 500;

export async function readLiveSource(
  event: ScheduleEvent,
  config: EngineConfig,
  affordableMs: number,
): Promise<LiveSnapshot | LiveSourceError> {
  try {
    return await fetchLiveSource(event.uri, {
      fetch: config.fetch,
      timeoutMs: Math.min(config.vodLoadTimeoutMs, Math.max(MIN_READ_TIMEOUT_MS, affordableMs)),
      maxPlaylistBytes: config.maxPlaylistBytes,
    });
  } catch (err) {
    return toLiveError(err, event.uri);
  }
}
