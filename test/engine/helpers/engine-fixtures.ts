/** A small world for engine tests: an origin with VODs of different ladders, a slate, and broken URLs. */
import { type EngineOptions, resolveConfig } from '../../../engine-container/src/config';
import { Engine } from '../../../engine-container/src/engine';
import { EngineCore } from '../../../engine-container/src/engine-core';
import type { IAssetManager, VodResponse } from '../../../engine-container/src/types';
import { FakeOrigin, mediaPlaylist, simpleVod } from './playlists';

// The engine logs every VOD error; tests provoke hundreds of them on purpose.
process.env.LOG_LEVEL ??= 'silent';

export const ORIGIN = 'https://origin.test';

export function fakeWorld(segmentMs = { a: 2000, b: 4000 }) {
  const a = simpleVod(`${ORIGIN}/a`, Array(20_000 / segmentMs.a).fill(segmentMs.a), [
    { bandwidth: 300_000, width: 320, height: 180 },
    { bandwidth: 800_000, width: 640, height: 360 },
  ]);
  const b = simpleVod(`${ORIGIN}/b`, Array(24_000 / segmentMs.b).fill(segmentMs.b), [
    { bandwidth: 200_000, width: 256, height: 144 },
    { bandwidth: 600_000, width: 480, height: 270 },
    { bandwidth: 1_500_000, width: 854, height: 480 },
  ]);
  const slate = simpleVod(`${ORIGIN}/slate`, [2000, 2000], [{ bandwidth: 300_000, width: 320, height: 180 }]);
  const preroll = simpleVod(
    `${ORIGIN}/ad`,
    [2000, 2000, 2000],
    [{ bandwidth: 300_000, width: 320, height: 180 }],
  );
  const origin = new FakeOrigin().add({ ...a.files, ...b.files, ...slate.files, ...preroll.files });
  origin.routes.set(`${ORIGIN}/malformed/master.m3u8`, '<html>not a playlist</html>');
  origin.routes.set(`${ORIGIN}/media-only/index.m3u8`, mediaPlaylist([2000, 2000, 2000]));
  return {
    origin,
    a: a.uri,
    b: b.uri,
    slate: slate.uri,
    preroll: preroll.uri,
    missing: `${ORIGIN}/missing/master.m3u8`,
    malformed: `${ORIGIN}/malformed/master.m3u8`,
  };
}

/** An asset manager answering from a script (one entry per call; the last one repeats). */
export class ScriptedAssetManager implements IAssetManager {
  readonly requests: unknown[] = [];
  readonly errors: Array<{ err: Error; vodResponse?: VodResponse }> = [];
  private calls = 0;

  constructor(private readonly script: (call: number) => VodResponse | Promise<VodResponse>) {}

  async getNextVod(req: unknown): Promise<VodResponse> {
    this.requests.push(req);
    return this.script(this.calls++);
  }

  handleError(err: Error, vodResponse?: VodResponse): void {
    this.errors.push({ err, vodResponse });
  }
}

export const vodResponse = (uri: string, extra: Partial<VodResponse> = {}): VodResponse => ({
  id: uri.split('/')[3]!,
  title: uri,
  uri,
  ...extra,
});

export function makeCore(
  am: IAssetManager,
  options: EngineOptions & { startMs?: number; sharedClock?: { now: number } } = {},
) {
  const { startMs = Date.UTC(2025, 0, 1), sharedClock, ...rest } = options;
  const clock = sharedClock ?? { now: startMs };
  const core = new EngineCore(am, resolveConfig({ clock: () => clock.now, ...rest }, {}));
  return { core, clock };
}

/**
 * An Engine on a free loopback port playing world.a on channel `news` (options may add or override),
 * started; `base` is its URL.
 */
export async function startNewsEngine(
  world: ReturnType<typeof fakeWorld>,
  options: EngineOptions = {},
): Promise<{ engine: Engine; base: string }> {
  const engine = new Engine(new ScriptedAssetManager(() => vodResponse(world.a)), {
    port: 0,
    host: '127.0.0.1',
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    channelManager: { getChannels: () => [{ id: 'news', name: 'News' }] },
    ...options,
  });
  await engine.start();
  return { engine, base: `http://127.0.0.1:${engine.port}` };
}
