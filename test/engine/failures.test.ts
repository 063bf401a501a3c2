import { describe, expect, it } from 'vitest';
import type { VodResponse } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';

type World = ReturnType<typeof fakeWorld>;
const SLOW = 'https://origin.test/slow/master.m3u8';

/** A channel whose first VOD plays, then `second` answers every later request. */
async function channelWith(second: (w: World) => VodResponse | Promise<VodResponse>, options = {}) {
  const world = fakeWorld();
  world.origin.routes.set(SLOW, { delayMs: 5000 });
  const am = new ScriptedAssetManager((call) => (call === 0 ? vodResponse(world.a) : second(world)));
  const { core, clock } = makeCore(am, {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    ...options,
  });
  await core.preloadSlate();
  const channel = core.upsertChannel({ id: 'ch', name: 'ch' });
  await channel.playout.advance();
  return { world, am, core, clock, ...channel, items: channel.playout.tail.items };
}

describe('when the next VOD cannot be played', () => {
  it.each([
    ['getNextVod throws', () => Promise.reject(new Error('boom')), 'boom', {}],
    [
      'getNextVod times out',
      () => new Promise<VodResponse>(() => {}),
      'getNextVod timed out',
      { getNextVodTimeoutMs: 50 },
    ],
    ['the VodResponse has no uri', () => ({ id: 'x', title: 'x' }), 'has no uri', {}],
    ['the VOD is not found', (w: World) => vodResponse(w.missing), 'returned 404', {}],
    ['the VOD does not answer in time', () => vodResponse(SLOW), 'did not answer', { vodLoadTimeoutMs: 50 }],
    [
      'the VOD playlist is malformed',
      (w: World) => vodResponse(w.malformed),
      'does not start with #EXTM3U',
      {},
    ],
  ] as const)('inserts the slate and calls handleError when %s', async (_, second, message, options) => {
    const { items, am, world } = await channelWith(
      second as (w: World) => VodResponse | Promise<VodResponse>,
      options,
    );
    expect(items[0]!.kind).toBe('vod');
    expect(items[1]).toMatchObject({ kind: 'slate', uri: world.slate, loop: 1, durationMs: 10 * 4000 });
    expect(am.errors[0]!.err.message).toContain(message);
  });

  it('passes the failed VodResponse to handleError', async () => {
    const { am, world } = await channelWith((w) => vodResponse(w.missing, { id: 'episode-9' }));
    expect(am.errors[0]!.vodResponse).toMatchObject({ id: 'episode-9', uri: world.missing });
  });

  it('plays the slate for the desired duration of a gap, without reporting an error', async () => {
    const { items, am } = await channelWith(() => ({
      id: 'g',
      title: 'g',
      type: 'gap',
      desiredDuration: 7000,
    }));
    expect(items[1]).toMatchObject({ kind: 'slate', durationMs: 8000, reason: 'gap' });
    expect(am.errors).toEqual([]);
  });

  it('advances time with a synthetic EXT-X-GAP item when no slate can be loaded', async () => {
    const { items, playlists, clock } = await channelWith((w) => vodResponse(w.missing), {
      defaultSlateUri: 'https://origin.test/no-slate/master.m3u8',
      slateRepetitions: 2,
      slateDuration: 3000,
    });
    expect(items[1]).toMatchObject({ kind: 'gap', durationMs: 6000 });
    clock.now = items[1]!.startMs + 6000;
    expect((await playlists.mediaPlaylist('v0')).match(/#EXT-X-GAP/g)).toHaveLength(3);
  });

  it('refuses a VOD whose segments are longer than the channel target duration', async () => {
    const { items, am } = await channelWith((w) => vodResponse(w.b));
    expect(items[0]!.targetDurationS).toBe(2);
    expect(items[1]!.kind).toBe('slate');
    expect(am.errors[0]!.err.message).toContain('longer than the channel target duration');
  });

  it('does not start a channel before any VOD or slate can be loaded, and retries', async () => {
    const world = fakeWorld();
    let ok = false;
    const am = new ScriptedAssetManager(() => vodResponse(ok ? world.a : world.missing));
    const { core } = makeCore(am, { fetch: world.origin.fetch });
    const { playout } = core.upsertChannel({ id: 'ch', name: 'ch' });
    await playout.advance();
    expect(playout.header).toBeUndefined();
    ok = true;
    await playout.advance();
    expect(playout.tail.items[0]!.kind).toBe('vod');
  });
});

describe('prerolls', () => {
  it('plays the preroll a VodResponse asks for before the VOD', async () => {
    const { items } = await channelWith((w) =>
      vodResponse(w.a, { preroll: { uri: w.preroll, durationMs: 4000 } }),
    );
    expect(items.slice(1, 3).map((i) => [i.kind, i.durationMs])).toEqual([
      ['preroll', 4000],
      ['vod', 20_000],
    ]);
  });

  it('plays the channel preroll before every VOD', async () => {
    const world = fakeWorld();
    const am = new ScriptedAssetManager(() => vodResponse(world.a));
    const { core } = makeCore(am, { fetch: world.origin.fetch });
    const { playout } = core.upsertChannel({
      id: 'ch',
      name: 'ch',
      options: { preroll: { uri: world.preroll } },
    });
    await playout.advance();
    expect(playout.tail.items.map((i) => i.kind).slice(0, 4)).toEqual(['preroll', 'vod', 'preroll', 'vod']);
  });
});
