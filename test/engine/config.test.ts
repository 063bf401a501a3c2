import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ConfigError } from '../../core/env';
import { resolveConfig } from '../../engine-container/src/config';
import { Engine } from '../../engine-container/src/engine';

const am = { getNextVod: async () => ({ id: 'x', title: 'x', uri: 'https://o.test/x.m3u8' }) };

describe('engine options', () => {
  it('fills in every default of the engine option table', () => {
    const c = resolveConfig({}, {});
    expect(c).toMatchObject({
      slateRepetitions: 10,
      slateDuration: 4000,
      sharedLogMaxAgeMs: 1000,
      cacheTTL: 4,
      cloudMetrics: false,
      useDemuxedAudio: false,
      dummySubtitleEndpoint: '/vtt/dummyUrl',
      subtitleSliceEndpoint: '/vtt/sliceUrl',
      useVTTSubtitles: false,
      alwaysNewSegments: false,
      partialStoreHLSVod: false,
      alwaysMapBandwidthByNearest: false,
      diffCompensationRate: 0.5,
      averageSegmentDuration: 3000,
      volatileKeyTTL: 5,
      keepAliveTimeout: 5,
      sessionEventStream: false,
      heartbeat: '/health',
      playlistWindowMs: 60000,
      port: 8000,
    });
  });

  it('leaves maxTickInterval unset by default, for the tick to adapt to the channels', () => {
    expect(resolveConfig({}, {}).maxTickInterval).toBeUndefined();
  });

  it.each([
    { alwaysNewSegments: true },
    { alwaysNewSegments: false },
    { partialStoreHLSVod: false },
    { sharedStoreCacheTTL: 0 },
    { targetDurationPadding: 2 },
  ])('accepts the contract option %o, which this engine honours', (options) => {
    expect(() => resolveConfig(options, {})).not.toThrow();
  });

  it('takes the port from the option, else the environment variable port, else 8000', () => {
    expect(resolveConfig({ port: 0 }, { port: '9000' }).port).toBe(0);
    expect(resolveConfig({}, { port: '9000' }).port).toBe(9000);
    expect(() => resolveConfig({}, { port: 'eighty' })).toThrow(ConfigError);
  });

  it.each([
    [{ maxTickInterval: 2000 }, 'maxTickInterval: must exceed the media segment length'],
    [
      { forceTargetDuration: 12, maxTickInterval: 11_000 },
      'maxTickInterval: must exceed the media segment length (forceTargetDuration 12 s)',
    ],
    [{ cacheTTL: 0 }, 'cacheTTL'],
    [{ slateRepetitions: -1 }, 'slateRepetitions'],
    [{ diffCompensationRate: 2 }, 'diffCompensationRate'],
    [
      { forceTargetDuration: 6, playlistWindowMs: 12_000 },
      'playlistWindowMs: must hold at least 3 target durations',
    ],
    [{ defaultSlateUri: 'not a url' }, 'defaultSlateUri'],
    [{ heartbeat: 'health' }, 'heartbeat: must be a path'],
    [{ staticDirectory: '/no/such/dir' }, 'staticDirectory: "/no/such/dir" is not a directory'],
    [{ channelManager: {} }, 'channelManager: must have a getChannels() method'],
    [{ slateRepetiton: 3 }, "Unrecognized key(s) in object: 'slateRepetiton'"],
    [{ playheadDiffThreshold: 1000 }, 'playheadDiffThreshold: not supported: this engine has no playhead'],
    [{ partialStoreHLSVod: true }, 'partialStoreHLSVod: not supported: the shared store holds no VOD'],
    [{ sharedStoreCacheTTL: 1000 }, 'sharedStoreCacheTTL: not supported: every log item is written'],
    [
      { forceTargetDuration: 6, targetDurationPadding: 1 },
      'targetDurationPadding: pads the target duration computed from the media',
    ],
  ])('refuses %o at construction', (options, message) => {
    expect(() => new Engine(am, options as never)).toThrow(ConfigError);
    expect(() => new Engine(am, options as never)).toThrow(message);
  });

  it('refuses an asset manager without getNextVod', () => {
    expect(() => new Engine({} as never)).toThrow('assetManager must implement getNextVod()');
  });

  it('starts nothing in the constructor', async () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const calls: string[] = [];
    const assets = {
      getNextVod: async () => {
        calls.push('getNextVod');
        return { id: 'x', title: 'x' };
      },
    };
    const channelManager = {
      getChannels: () => {
        calls.push('getChannels');
        return [{ id: 'a', name: 'a' }];
      },
    };
    new Engine(assets, { channelManager });
    expect(vi.getTimerCount()).toBe(0);
    // Had the constructor set a timer after all, it would fire here, at once and for sure.
    await vi.runAllTimersAsync();
    expect(calls).toEqual([]);
  });
});
