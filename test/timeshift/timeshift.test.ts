/**
 * Start-over and catch-up on a fake clock (engine-container/src/timeshift/, docs/timeshift.md): hours
 * of a channel played, then its playlists asked from a moment of the past. A segment is listed with the
 * media sequence number, discontinuity sequence and PROGRAM-DATE-TIME the live playlist gave it then.
 */
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../core/errors';
import { shiftMaster } from '../../engine-container/src/timeshift/timeshift-playlists';
import { timeshiftRange } from '../../engine-container/src/timeshift/timeshift-range';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { HOUR, playedChannel } from './support/played-core';

const params = (q: Record<string, string>) => new URLSearchParams(q);
const iso = (ms: number) => new Date(ms).toISOString();

describe('start-over: ?start= on a channel that played for hours', () => {
  it('lists every segment from the one on air at start to the live edge, numbered and dated as they were live', async () => {
    const ch = await playedChannel(3, HOUR);
    const snap = ch.snapshot;
    const first = snap.segments[0]!;
    const range = timeshiftRange(
      params({ start: iso(first.programDateTimeMs! + 500) }),
      ch.clock.now,
      24 * HOUR,
    )!;
    const event = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    expect(event.playlistType).toBe('EVENT');
    expect(event.endList).toBe(false);
    expect(event.segments[0]).toEqual(first);
    expect(event.segments.slice(0, snap.segments.length)).toEqual(snap.segments);
    expect(event.discontinuitySequence).toBe(snap.discontinuitySequence);
    // The live edge: the live playlist's newest segment is the EVENT playlist's last.
    const live = parseMediaPlaylist(await ch.runtime.playlists.mediaPlaylist('v0'));
    expect(event.segments[event.segments.length - 1]).toEqual(live.segments[live.segments.length - 1]);
    const numbers = event.segments.map((s) => s.mediaSequence);
    expect(numbers).toEqual(numbers.map((_, k) => numbers[0]! + k));
  });

  it('takes start as Unix seconds too', async () => {
    const ch = await playedChannel(1, 10 * 60_000);
    const at = ch.snapshot.segments[1]!.programDateTimeMs!;
    const range = timeshiftRange(params({ start: String(at / 1000) }), ch.clock.now, 24 * HOUR)!;
    const event = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    expect(event.segments[0]!.programDateTimeMs).toBe(at);
  });
});

describe('catch-up: ?start=&end= on a range that aired', () => {
  it('is a VOD playlist with EXT-X-ENDLIST from the segment at start to the one holding end', async () => {
    const ch = await playedChannel(3, HOUR);
    const startMs = ch.snapshot.segments[0]!.programDateTimeMs! + 100;
    const endMs = startMs + 30 * 60_000;
    const range = timeshiftRange(params({ start: iso(startMs), end: iso(endMs) }), ch.clock.now, 24 * HOUR)!;
    const vod = parseMediaPlaylist(await ch.core.timeshift.media(ch.runtime, 'v0', range));
    expect(vod.playlistType).toBe('VOD');
    expect(vod.endList).toBe(true);
    const first = vod.segments[0]!;
    const last = vod.segments[vod.segments.length - 1]!;
    expect(first.programDateTimeMs!).toBeLessThanOrEqual(startMs);
    expect(first.programDateTimeMs! + first.duration * 1000).toBeGreaterThan(startMs);
    expect(last.programDateTimeMs!).toBeLessThan(endMs);
    expect(last.programDateTimeMs! + last.duration * 1000).toBeGreaterThanOrEqual(endMs);
  });
});

describe('the time-shifted master and the window asked for', () => {
  it('gives every rendition URI of the master the same window', () => {
    const master =
      '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",URI="audio/aac/en.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n0.m3u8\n';
    expect(shiftMaster(master, { fromMs: 1_000_000, toMs: 2_000_500 })).toBe(
      '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",URI="audio/aac/en.m3u8?start=1000&end=2000.5"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n0.m3u8?start=1000&end=2000.5\n',
    );
  });

  it('refuses a start outside the retention or in the future, an end before start, and a malformed value', () => {
    const now = Date.UTC(2026, 0, 2);
    const refused = (q: Record<string, string>) => {
      try {
        timeshiftRange(params(q), now, 24 * HOUR);
      } catch (err) {
        return [(err as HttpError).status, (err as HttpError).details.field];
      }
      return 'accepted';
    };
    expect(refused({ start: iso(now - 25 * HOUR) })).toEqual([400, 'start']);
    expect(refused({ start: iso(now + 1000) })).toEqual([400, 'start']);
    expect(refused({ start: iso(now - HOUR), end: iso(now - 2 * HOUR) })).toEqual([400, 'end']);
    expect(refused({ start: 'an hour ago' })).toEqual([400, 'start']);
    expect(refused({ end: iso(now) })).toEqual([400, 'start']);
    expect(refused({ from: 'programme' })).toEqual([400, 'start']);
    expect(refused({ start: iso(now - HOUR), from: 'beginning' })).toEqual([400, 'from']);
    expect(timeshiftRange(params({}), now, 24 * HOUR)).toBeUndefined();
  });

  it('refuses a window longer than 24 h (as MediaPackage), whatever the retention', () => {
    const now = Date.UTC(2026, 0, 5);
    const week = 7 * 24 * HOUR;
    const field = (q: Record<string, string>) => {
      try {
        return timeshiftRange(params(q), now, week) && 'accepted';
      } catch (err) {
        return (err as HttpError).details.field;
      }
    };
    expect(field({ start: iso(now - 24 * HOUR - 1000) })).toBe('start');
    expect(field({ start: iso(now - 3 * 24 * HOUR), end: iso(now - 2 * 24 * HOUR + 1000) })).toBe('end');
    expect(field({ start: iso(now - 3 * 24 * HOUR), end: iso(now - 2 * 24 * HOUR) })).toBe('accepted');
    expect(field({ start: iso(now - HOUR), end: iso(now + 24 * HOUR) })).toBe('end');
  });
});
