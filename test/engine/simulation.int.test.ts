/**
 * 24 simulated hours of a Loop channel: VODs with different segment durations and ladders alternate,
 * and the asset manager fails in every way it can. Every reload of every video rendition (every 2 s)
 * is checked from the outside (test/support's own parser and RFC 8216 rule checker) and for drift.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine-container/src/events';
import { itemEndMs } from '../../engine-container/src/playout/item';
import { type MediaPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist, compareReloads, type Violation } from '../support/live-rules';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from './helpers/engine-fixtures';

const HOURS = 24;
const RELOAD_MS = 2000;
/** How far back start-over may reach: the store keeps this much of the log, and no more. */
const RETENTION_MS = 10 * 60_000;

describe('a Loop channel over 24 simulated hours', () => {
  it('keeps every RFC 8216 live rule on every reload, with zero drift, through VOD changes and failures', async () => {
    const world = fakeWorld({ a: 4000, b: 6000 });
    const am = new ScriptedAssetManager((call) => {
      if (call % 13 === 5) throw new Error('asset manager is down');
      if (call % 13 === 9) return vodResponse(world.missing);
      if (call % 17 === 3) return { id: 'no-uri', title: 'no uri' };
      if (call % 19 === 7) return { id: 'gap', title: 'gap', type: 'gap', desiredDuration: 7000 };
      if (call % 23 === 11) return vodResponse(world.malformed);
      return vodResponse(call % 2 === 0 ? world.a : world.b);
    });
    const { core, clock } = makeCore(am, {
      fetch: world.origin.fetch,
      defaultSlateUri: world.slate,
      forceTargetDuration: 6,
      playlistWindowMs: 30_000,
      timeshiftRetentionMs: RETENTION_MS,
    });
    const events: EngineEvent[] = [];
    core.events.subscribe((e) => events.push(e));
    await core.preloadSlate();
    const { playout, playlists } = core.upsertChannel({ id: 'loop', name: 'Loop' });

    const keys = ['v0', 'v1'];
    const previous = new Map<string, MediaPlaylist>();
    const previousText = new Map<string, string>();
    const violations: Array<Violation & { key: string; at: string }> = [];
    let worstLagMs = 0;
    const endMs = clock.now + HOURS * 3600_000;
    await playout.advance();
    for (; clock.now < endMs; clock.now += RELOAD_MS) {
      if (playout.nextWakeMs() <= clock.now) await playout.advance();
      for (const key of keys) {
        const text = await playlists.mediaPlaylist(key);
        const unchanged = previousText.get(key) === text;
        const playlist = unchanged ? previous.get(key)! : parseMediaPlaylist(text);
        const last = playlist.segments[playlist.segments.length - 1]!;
        const lastEnd = last.programDateTimeMs! + last.duration * 1000;
        expect(lastEnd).toBeLessThanOrEqual(clock.now);
        worstLagMs = Math.max(worstLagMs, clock.now - lastEnd);
        // An unchanged body cannot break a rule between reloads: only check what changed (keeps 24 h fast).
        if (unchanged) continue;
        const found = [...checkPlaylist(playlist)];
        const prev = previous.get(key);
        if (prev) {
          found.push(...compareReloads(prev, playlist));
          const prevLast = prev.mediaSequence + prev.segments.length - 1;
          if (playlist.mediaSequence > prevLast + 1)
            found.push({ rule: 'segment-moved', message: `skipped ${prevLast + 1}` });
        }
        for (const v of found) violations.push({ ...v, key, at: new Date(clock.now).toISOString() });
        expect(playlist.targetDuration).toBe(6);
        previous.set(key, playlist);
        previousText.set(key, text);
      }
      if (violations.length > 5) break;
    }

    expect(violations.slice(0, 5)).toEqual([]);
    // The live edge is never more than one segment (6 s at most here) behind the clock.
    expect(worstLagMs).toBeLessThan(6000);
    const slates = events.filter((e) => e.type === 'slate_inserted');
    expect(slates.length).toBeGreaterThan(100);
    expect(am.errors.length).toBe(events.filter((e) => e.type === 'vod_error').length);
    const kinds = new Set(am.errors.map((e) => (e.err as { code?: string }).code ?? e.err.name));
    expect([...kinds].sort()).toEqual(['AssetError', 'Error', 'vod_malformed', 'vod_not_found']);
    // Old items are trimmed: memory stays bounded however long the channel runs. The tail keeps what
    // the playlists need; the store what start-over may ask for (the retention), nothing older.
    expect(playout.tail.items.length).toBeLessThan(20);
    const stored = await core.store.read('loop');
    expect(Math.min(...stored.map((item) => itemEndMs(item)))).toBeGreaterThanOrEqual(
      clock.now - RETENTION_MS - 60_000,
    );
    expect(stored.length).toBeLessThan(RETENTION_MS / 1000);
  }, 600_000);
});
