/**
 * An engine core (no server) whose channel `ch` has played world.a (a 20 s VOD of 2 s segments) for
 * hours on a fake clock, with a snapshot of its live v0 playlist taken on the way: what start-over's
 * playlists are compared with. `logStore` replaces the in-memory store (Redis, a counting store).
 */
import type { EngineOptions } from '../../../engine-container/src/config';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../../engine/helpers/engine-fixtures';
import { type MediaPlaylist, parseMediaPlaylist } from '../../support/hls-playlist';

export const HOUR = 3_600_000;

export interface PlayedCoreOptions {
  /** The fake clock both the core and the caller's store read. */
  clock?: { now: number };
  logStore?: EngineOptions['logStore'];
}

/** A channel played for `hours`; the live v0 playlist as it was `snapshotAfterMs` after it started. */
export async function playedChannel(hours: number, snapshotAfterMs: number, options: PlayedCoreOptions = {}) {
  const world = fakeWorld();
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  const made = makeCore(am, {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    ...(options.clock ? { sharedClock: options.clock } : {}),
    ...(options.logStore ? { logStore: options.logStore } : {}),
  });
  const runtime = made.core.upsertChannel({ id: 'ch', name: 'ch' });
  const startedAt = made.clock.now;
  let snapshot: MediaPlaylist | undefined;
  for (const endMs = startedAt + hours * HOUR; made.clock.now < endMs; made.clock.now += 2000) {
    if (runtime.playout.nextWakeMs() <= made.clock.now) await runtime.playout.advance();
    if (!snapshot && made.clock.now >= startedAt + snapshotAfterMs)
      snapshot = parseMediaPlaylist(await runtime.playlists.mediaPlaylist('v0'));
  }
  await runtime.playout.advance();
  return { ...made, world, runtime, snapshot: snapshot! };
}
