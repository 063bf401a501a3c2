/**
 * Time-shifted playlists are served from each rendition's rendered history, shared by every request
 * (timeshift/shifted-renditions.ts, docs/timeshift.md "Cost"): the bytes are those of the window
 * rendered whole, whatever the start, end and moment; the histories stay within their byte bound.
 */
import { describe, expect, it } from 'vitest';
import { trackResolver } from '../../engine-container/src/channel/resolver';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { shiftedPlaylist } from '../../engine-container/src/timeshift/shifted-playlist';
import { TimeshiftPlaylists } from '../../engine-container/src/timeshift/timeshift-playlists';
import { type TimeshiftRange, timeshiftRange } from '../../engine-container/src/timeshift/timeshift-range';
import { computeTimeshiftWindow } from '../../engine-container/src/timeshift/timeshift-window';
import { HOUR, playedChannel } from './support/played-core';

/** Keeps every item (the in-memory store keeps 1,000): as Redis or DynamoDB keep a day. */
class KeepAllStore extends InMemoryPlayoutLogStore {
  override async trim(): Promise<void> {}
}

async function channel(hours: number, cacheBytes?: number, retentionMs = 24 * HOUR) {
  const clock = { now: Date.UTC(2025, 0, 1) };
  const store = new KeepAllStore(() => clock.now, 24 * HOUR);
  const ch = await playedChannel(hours, 0, { clock, logStore: store });
  const config = { ...ch.core.config, timeshiftRetentionMs: retentionMs };
  const { vods } = ch.core;
  const resolve = trackResolver(vods, config);
  const shifted = new TimeshiftPlaylists({
    config,
    store,
    resolve,
    vods,
    ...(cacheBytes ? { cacheBytes } : {}),
  });
  const range = (query: Record<string, string>) =>
    timeshiftRange(new URLSearchParams(query), clock.now, 24 * HOUR) as TimeshiftRange;
  /** The window rendered whole from the whole log, as every request was before the histories. */
  const whole = async (r: TimeshiftRange) => {
    const win = computeTimeshiftWindow(
      await store.read('ch'),
      resolve,
      'v0',
      r.fromMs,
      r.toMs ?? Infinity,
      clock.now,
    );
    return shiftedPlaylist(win, r.toMs !== undefined && win.complete);
  };
  /** Plays on for ms, on the fake clock. */
  const play = async (ms: number) => {
    for (const end = clock.now + ms; clock.now < end; clock.now += 1000)
      if (ch.runtime.playout.nextWakeMs() <= clock.now) await ch.runtime.playout.advance();
  };
  return { ...ch, shifted, range, whole, play };
}

const s = (ms: number) => String(ms / 1000);

describe('a time-shifted playlist from the rendered history', { timeout: 60_000 }, () => {
  it('has the bytes of the window rendered whole, for any start, end and moment', async () => {
    const ch = await channel(3);
    const now = ch.clock.now;
    const starts = [
      now - 3 * HOUR - 600_000, // before the channel's first item
      now - 3 * HOUR + 30_000,
      now - 2 * HOUR - 1,
      now - HOUR + 1999,
      now - 61_001,
      now - 4_000,
    ];
    let compared = 0;
    for (let round = 0; round < 3; round++) {
      for (const start of starts) {
        for (const end of [undefined, start + 1, start + 20_000, start + HOUR, ch.clock.now + 30_000]) {
          if (end !== undefined && end <= start) continue;
          const query: Record<string, string> = {
            start: s(start),
            ...(end === undefined ? {} : { end: s(end) }),
          };
          const r = ch.range(query);
          expect(await ch.shifted.media(ch.runtime, 'v0', r), JSON.stringify(query)).toBe(await ch.whole(r));
          compared++;
        }
      }
      // The live edge moves on: EVENT reloads and ranges ending now must follow it.
      await ch.play(7_000 + round * 20_000);
    }
    console.info(`${compared} playlists equal to the window rendered whole`);
  });

  it('gives every start within one segment the same playlist, and an older start the same segments', async () => {
    const ch = await channel(2);
    const at = ch.clock.now - HOUR;
    const segmentStart = at - (at % 2000);
    const one = await ch.shifted.media(ch.runtime, 'v0', ch.range({ start: s(segmentStart) }));
    for (const inside of [1, 999, 1999])
      expect(await ch.shifted.media(ch.runtime, 'v0', ch.range({ start: s(segmentStart + inside) }))).toBe(
        one,
      );
    const older = ch.range({ start: s(segmentStart - 90 * 60_000) });
    const before = ch.shifted.cache.bytes;
    expect(await ch.shifted.media(ch.runtime, 'v0', older)).toBe(await ch.whole(older));
    console.info(`held: ${before} bytes from an hour ago, ${ch.shifted.cache.bytes} from 1 h 50 min ago`);
    expect(ch.shifted.cache.bytes).toBeGreaterThan(before);
  });

  it('stays within its byte bound under many distinct starts, with the same bytes', async () => {
    const bound = 100_000;
    const ch = await channel(3, bound);
    let most = 0;
    for (let n = 0; n < 60; n++) {
      // Starts all over the retained three hours, newest and oldest in turn.
      const start = ch.clock.now - (n % 2 === 0 ? n * 90_000 + 5_000 : 3 * HOUR - n * 60_000);
      const r = ch.range({ start: s(start) });
      expect(await ch.shifted.media(ch.runtime, 'v0', r)).toBe(await ch.whole(r));
      most = Math.max(most, ch.shifted.cache.bytes);
      if (n % 10 === 9) await ch.play(4_000);
    }
    console.info(`largest held: ${most} bytes of a ${bound} byte bound`);
    expect(most).toBeLessThanOrEqual(bound);
    expect(most).toBeGreaterThan(0);
  });

  it('forgets what left the retention as the live edge moves on', async () => {
    const ch = await channel(1, undefined, HOUR);
    const r = () => ch.range({ start: s(ch.clock.now - 50 * 60_000) });
    await ch.shifted.media(ch.runtime, 'v0', r());
    const anHour = ch.shifted.cache.bytes;
    // Reloaded every ten minutes: its history grows at the live edge, and forgets what left the retention.
    for (let n = 0; n < 12; n++) {
      await ch.play(10 * 60_000);
      const later = r();
      expect(await ch.shifted.media(ch.runtime, 'v0', later)).toBe(await ch.whole(later));
    }
    console.info(
      `held: ${anHour} bytes for 50 min, then ${ch.shifted.cache.bytes} two hours on (1 h retention)`,
    );
    // An hour and a chunk, not the 2 h 50 min it rendered.
    expect(ch.shifted.cache.bytes).toBeLessThan(anHour * 2);
  });
});
