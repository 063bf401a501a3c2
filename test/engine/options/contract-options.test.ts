/**
 * The engine contract's options that this engine's design could have left without effect: each is
 * honoured with the contract's meaning here (README, "Options"); the ones it cannot honour are refused
 * in config.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { engineHostConfigFromEnv } from '../../../engine-container/host/config';
import { Engine } from '../../../engine-container/src/engine';
import { computeWindow } from '../../../engine-container/src/playout/window';
import type { IAssetManager, VodResponse } from '../../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../helpers/engine-fixtures';
import { ladderOf, makeVod, TestLog } from '../helpers/log';

const NO_ASSETS = { getNextVod: async () => ({ id: 'x', title: 'x' }) };

/** A channel whose first VOD is world.a (2 s segments), then `next` answers every later request. */
async function channelWith(next: (w: ReturnType<typeof fakeWorld>) => VodResponse, options = {}) {
  const world = fakeWorld();
  const am = new ScriptedAssetManager((call) => (call === 0 ? vodResponse(world.a) : next(world)));
  const { core } = makeCore(am, { fetch: world.origin.fetch, defaultSlateUri: world.slate, ...options });
  await core.preloadSlate();
  const channel = core.upsertChannel({ id: 'ch', name: 'ch' });
  await channel.playout.advance();
  return { core, items: channel.playout.tail.items };
}

describe('maxTickInterval', () => {
  it('adapts, when unset, to one second over the longest target duration of the channels', async () => {
    const { core, items } = await channelWith((w) => vodResponse(w.a));
    expect(items[0]!.targetDurationS).toBe(2);
    expect(core.tickCeilingMs()).toBe(3000);
  });

  it('is 10 s, when unset, while no channel has a target duration yet', () => {
    const { core } = makeCore(new ScriptedAssetManager(() => vodResponse('https://o.test/x')));
    expect(core.tickCeilingMs()).toBe(10_000);
  });

  it('forgets a removed channel, even one whose run ends after its removal', async () => {
    const world = fakeWorld();
    // 'long' plays b (4 s segments: target duration 4), 'short' plays a (2 s: target duration 2).
    const am: IAssetManager = {
      getNextVod: async (req) => vodResponse(req.sessionId === 'long' ? world.b : world.a),
    };
    const { core } = makeCore(am, { fetch: world.origin.fetch });
    await core.upsertChannel({ id: 'short', name: 'short' }).playout.advance();
    const run = core.upsertChannel({ id: 'long', name: 'long' }).playout.advance();
    core.removeChannel('long');
    expect(core.tickCeilingMs()).toBe(3000);
    await run;
    expect(core.tickCeilingMs()).toBe(3000);
  });

  it('is the set value whatever the channels play', async () => {
    const { core } = await channelWith((w) => vodResponse(w.a), { maxTickInterval: 7000 });
    expect(core.tickCeilingMs()).toBe(7000);
  });
});

describe('targetDurationPadding', () => {
  it('is added to the target duration computed from the longest segment', async () => {
    const { items } = await channelWith((w) => vodResponse(w.a), { targetDurationPadding: 3 });
    expect(items[0]!.targetDurationS).toBe(2 + 3);
  });

  it('lets a later VOD with segments up to the padding longer play instead of the slate', async () => {
    const { items } = await channelWith((w) => vodResponse(w.b), { targetDurationPadding: 2 });
    expect(items[1]).toMatchObject({ kind: 'vod', uri: fakeWorld().b });
  });
});

describe('the engine host', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('forces no target duration when ENGINE_FORCE_TARGET_DURATION is unset: each channel has its own', () => {
    delete process.env.ENGINE_FORCE_TARGET_DURATION;
    delete process.env.ENGINE_TARGET_DURATION_PADDING;
    const { options } = engineHostConfigFromEnv();
    expect(options.forceTargetDuration).toBeUndefined();
    expect(options.targetDurationPadding).toBeUndefined();
  });

  it('lets ENGINE_TARGET_DURATION_PADDING pad the computed target duration (nothing forced)', () => {
    delete process.env.ENGINE_FORCE_TARGET_DURATION;
    process.env.ENGINE_TARGET_DURATION_PADDING = '2';
    const { options } = engineHostConfigFromEnv();
    expect(options.forceTargetDuration).toBeUndefined();
    expect(options.targetDurationPadding).toBe(2);
    expect(() => new Engine(NO_ASSETS, options)).not.toThrow();
  });

  it('refuses to start with both ENGINE_FORCE_TARGET_DURATION and ENGINE_TARGET_DURATION_PADDING', () => {
    process.env.ENGINE_FORCE_TARGET_DURATION = '6';
    process.env.ENGINE_TARGET_DURATION_PADDING = '2';
    const { options } = engineHostConfigFromEnv();
    expect(() => new Engine(NO_ASSETS, options)).toThrow(
      'targetDurationPadding: pads the target duration computed from the media',
    );
  });

  it('leaves maxTickInterval unset, so the tick adapts to the channels', () => {
    expect(engineHostConfigFromEnv().options.maxTickInterval).toBeUndefined();
  });
});

describe('slateDuration', () => {
  it('is the length of the synthetic gap that stands in for a slate that cannot be loaded', async () => {
    const { items } = await channelWith(() => ({ id: 'g', title: 'g', type: 'gap' }), {
      defaultSlateUri: 'https://origin.test/no-slate/master.m3u8',
      slateDuration: 6000,
    });
    expect(items[1]).toMatchObject({ kind: 'gap', durationMs: 6000 });
  });

  it('gives way to the measured length of a slate that loads: a gap without a duration plays it once', async () => {
    const { items } = await channelWith(() => ({ id: 'g', title: 'g', type: 'gap' }), {
      slateDuration: 6000,
    });
    // The world's slate is two 2 s segments.
    expect(items[1]).toMatchObject({ kind: 'slate', durationMs: 4000, reason: 'gap' });
  });
});

describe('alwaysNewSegments', () => {
  it('holds whatever its value: a media sequence never advances without a new segment', () => {
    const log = TestLog.withLadder(ladderOf([500_000]), 3);
    const vods = [
      makeVod('https://o.test/a/master.m3u8', [{ bandwidth: 500_000, segmentsMs: [2000, 3000, 1000, 2500] }]),
      makeVod('https://o.test/b/master.m3u8', [{ bandwidth: 500_000, segmentsMs: [3000, 3000, 1500] }]),
    ];
    for (let i = 0; log.endMs < log.t0 + 120_000; i++) log.play(vods[i % 2]!);
    const changes: Array<{ newSegment: boolean }> = [];
    let before = computeWindow(log.items, log.resolve, 'v0', log.t0 + 10_000, 10_000);
    for (let now = log.t0 + 10_100; now < log.t0 + 110_000; now += 100) {
      const w = computeWindow(log.items, log.resolve, 'v0', now, 10_000);
      if (w.mediaSequence !== before.mediaSequence)
        changes.push({ newSegment: w.segments.at(-1)!.index > before.segments.at(-1)!.index });
      before = w;
    }
    expect(changes.length).toBeGreaterThan(30);
    expect(changes.filter((c) => !c.newSegment)).toEqual([]);
  });
});
