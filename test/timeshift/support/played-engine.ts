/**
 * A real engine whose channel `ch` has played for hours: its log filled on a fake clock (in 2 s steps),
 * then served on the real clock, so a real player can ask for any moment of those hours. The channel
 * plays vod-a (20 s) and the preroll fixture (6 s) in turn, from a static origin on 127.0.0.1.
 */

import type { ChannelRuntime } from '../../../engine-container/src/engine-core';
import { Engine } from '../../../engine-container/src/index';
import { InMemoryPlayoutLogStore } from '../../../engine-container/src/playout/log-store';
import { ensureFixtures, type FixturePaths } from '../../support/fixtures';
import { type StaticServer, startStaticServer } from '../../support/static-server';

export const HOUR = 3_600_000;

export interface PlayedEngine {
  engine: Engine;
  origin: StaticServer;
  fixtures: FixturePaths;
  /** The engine's base URL. */
  base: string;
  close(): Promise<void>;
}

export interface PlayedEngineOptions {
  /** How long the channel has played when the engine starts serving. */
  hours: number;
  /** Called after every step of the fake clock (the live playlists can be read as they were then). */
  onStep?: (nowMs: number, runtime: ChannelRuntime) => Promise<void>;
}

export async function startPlayedEngine(options: PlayedEngineOptions): Promise<PlayedEngine> {
  const fixtures = await ensureFixtures();
  const origin = await startStaticServer(fixtures.root);
  const vods = [fixtures.vodA, fixtures.preroll].map((f) => ({
    id: f.name,
    title: f.name,
    uri: `${origin.url}/${f.path}`,
  }));
  /** The fake time while the log is filled; undefined: the real clock. */
  let fakeNow: number | undefined;
  const clock = () => fakeNow ?? Date.now();
  let asks = 0;
  const engine = new Engine(
    { getNextVod: async () => vods[asks++ % vods.length]! },
    {
      port: 0,
      host: '127.0.0.1',
      clock,
      logStore: new InMemoryPlayoutLogStore(clock, 24 * HOUR),
      channelManager: { getChannels: () => [{ id: 'ch', name: 'Channel' }] },
    },
  );
  const runtime = engine.core.upsertChannel({ id: 'ch', name: 'Channel' });
  for (fakeNow = Date.now() - options.hours * HOUR; fakeNow < Date.now(); fakeNow += 2000) {
    if (runtime.playout.nextWakeMs() <= fakeNow) await runtime.playout.advance();
    await options.onStep?.(fakeNow, runtime);
  }
  fakeNow = undefined;
  await engine.start();
  return {
    engine,
    origin,
    fixtures,
    base: `http://127.0.0.1:${engine.port}`,
    close: async () => {
      await engine.stop();
      await origin.close();
    },
  };
}
