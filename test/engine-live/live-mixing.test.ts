import { describe, expect, it, vi } from 'vitest';
import { STALL_TARGET_DURATIONS } from '../../engine-container/src/live/live-mixer';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { fakeLiveSource } from '../engine/helpers/fake-live-source';
import { type MediaPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';

const TD_MS = 2000;

function liveChannel(store = new InMemoryPlayoutLogStore(), sharedClock?: { now: number }) {
  const world = fakeWorld();
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  const made = makeCore(am, {
    fetch: world.origin.fetch,
    defaultSlateUri: world.slate,
    logStore: store,
    ...(sharedClock ? { sharedClock } : {}),
  });
  const runtime = made.core.upsertChannel({ id: 'ch', name: 'ch' });
  const source = fakeLiveSource(world.origin, made.clock);
  return { world, am, source, ...made, ...runtime };
}

type Channel = ReturnType<typeof liveChannel>;

const liveEvent = (eventId: string, uri: string, startMs: number, endMs: number): ScheduleEvent => ({
  eventId,
  assetId: eventId,
  title: `Live ${eventId}`,
  type: 1,
  start_time: startMs,
  end_time: endMs,
  uri,
});

/** Runs the channel second by second, reloading v0 each time; returns the reloads. */
async function play(ch: Channel, untilMs: number): Promise<MediaPlaylist[]> {
  const reloads: MediaPlaylist[] = [];
  for (; ch.clock.now < untilMs; ch.clock.now += 1000) {
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    reloads.push(parseMediaPlaylist(await ch.playlists.mediaPlaylist('v0')));
  }
  return reloads;
}

/** A channel started, with a LIVE event from 30 s from now for 2 minutes. */
async function channelWithEvent(eventId: string) {
  const ch = liveChannel();
  await ch.playout.advance();
  const start = ch.clock.now + 30_000;
  ch.playout.setSchedule([liveEvent(eventId, ch.source.uri, start, start + 120_000)]);
  return { ch, start };
}

/** Two engines sharing one log, A started, and a LIVE event 30 s from now lasting `durationMs`. */
async function twoEngines(durationMs: number) {
  const store = new InMemoryPlayoutLogStore();
  const a = liveChannel(store);
  const b = liveChannel(store, a.clock);
  await a.playout.advance();
  const start = a.clock.now + 30_000;
  const events = [liveEvent('shared', a.source.uri, start, start + durationMs)];
  a.playout.setSchedule(events);
  b.playout.setSchedule(events);
  return { a, b, start };
}

/**
 * Runs the channel every 500 ms until `untilMs`, checking that players never run out (the log always
 * reaches past now); returns the reloads of v0, when the log's end first was not LIVE, and when the
 * first error was reported.
 */
async function playNeverDry(ch: Channel, untilMs: number) {
  const reloads: MediaPlaylist[] = [];
  let backAt: number | undefined;
  let firstErrorAt: number | undefined;
  for (; ch.clock.now < untilMs; ch.clock.now += 500) {
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    const last = ch.playout.tail.last!;
    expect(last.startMs + last.durationMs).toBeGreaterThan(ch.clock.now);
    if (backAt === undefined && last.kind !== 'live') backAt = ch.clock.now;
    if (firstErrorAt === undefined && ch.am.errors.length > 0) firstErrorAt = ch.clock.now;
    reloads.push(parseMediaPlaylist(await ch.playlists.mediaPlaylist('v0')));
  }
  return { reloads, backAt, firstErrorAt };
}

/** Every segment the reloads showed, once, in media sequence order. */
function segmentsSeen(reloads: MediaPlaylist[]) {
  const byMsn = new Map<number, MediaPlaylist['segments'][number]>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  return [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
}

describe('live mixing', () => {
  it('switches to a LIVE event at the first boundary at or after its start and back at its end, one discontinuity each way', async () => {
    const ch = liveChannel();
    await ch.playout.advance();
    const start = ch.clock.now + 40_500;
    ch.playout.setSchedule([liveEvent('match', ch.source.uri, start, start + 30_000)]);
    const reloads = await play(ch, start + 80_000);
    expect(checkReloads(reloads)).toEqual([]);
    const seen = segmentsSeen(reloads);
    const live = seen.filter((s) => ch.source.isLive(s.uri));
    expect(live.length).toBeGreaterThanOrEqual(14);
    const first = seen.indexOf(live[0]!);
    const last = seen.indexOf(live[live.length - 1]!);
    expect(last - first + 1).toBe(live.length);
    expect(live[0]!.programDateTimeMs! - start).toBeGreaterThanOrEqual(0);
    expect(live[0]!.programDateTimeMs! - start).toBeLessThan(TD_MS);
    expect(live.map((s) => s.discontinuity)).toEqual([true, ...Array(live.length - 1).fill(false)]);
    expect(seen[last + 1]!.discontinuity).toBe(true);
    expect(seen[last + 1]!.uri).toContain(ch.world.a.replace('master.m3u8', ''));
    // The source's own numbers run on: consecutive source segments, none skipped or repeated.
    const numbers = live.map((s) => Number(s.uri.match(/_(\d+)\.ts$/)![1]));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    const endPdt = seen[last + 1]!.programDateTimeMs!;
    expect(endPdt).toBeGreaterThanOrEqual(start + 30_000);
    expect(endPdt - (start + 30_000)).toBeLessThan(TD_MS);
    expect(seen.every((s) => s.programDateTimeMs !== undefined)).toBe(true);
  });

  it('maps each output rendition to a source variant', async () => {
    const ch = liveChannel();
    await ch.playout.advance();
    ch.playout.setSchedule([liveEvent('m', ch.source.uri, ch.clock.now + 30_000, ch.clock.now + 60_000)]);
    await play(ch, ch.clock.now + 50_000);
    const v1 = parseMediaPlaylist(await ch.playlists.mediaPlaylist('v1'));
    expect(v1.segments.some((s) => /\/cam\/v1_\d+\.ts$/.test(s.uri))).toBe(true);
    const v0 = parseMediaPlaylist(await ch.playlists.mediaPlaylist('v0'));
    expect(v0.segments.some((s) => /\/cam\/v0_\d+\.ts$/.test(s.uri))).toBe(true);
  });

  it('switches in at once to an event already running when the channel starts', async () => {
    const ch = liveChannel();
    ch.playout.setSchedule([liveEvent('on', ch.source.uri, ch.clock.now - 60_000, ch.clock.now + 60_000)]);
    const t0 = ch.clock.now;
    const reloads = await play(ch, t0 + 20_000);
    expect(checkReloads(reloads)).toEqual([]);
    const live = segmentsSeen(reloads).filter((s) => ch.source.isLive(s.uri));
    expect(live[0]!.programDateTimeMs! - t0).toBeLessThan(TD_MS + 1000);
  });

  it('returns to VOD2Live within 3 source target durations when the source stops, never running dry', async () => {
    const { ch, start } = await channelWithEvent('cut');
    await play(ch, start + 20_000);
    ch.source.stop();
    const stoppedAt = ch.clock.now;
    const { reloads, backAt } = await playNeverDry(ch, stoppedAt + 30_000);
    expect(checkReloads(reloads)).toEqual([]);
    expect(backAt! - stoppedAt).toBeLessThanOrEqual((STALL_TARGET_DURATIONS + 1) * ch.source.segmentMs);
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toContain('live_stalled');
  });

  it('returns to VOD2Live at once when the source answers 404', async () => {
    const { ch, start } = await channelWithEvent('gone');
    await play(ch, start + 10_000);
    ch.source.fail(404);
    const failedAt = ch.clock.now;
    await play(ch, failedAt + 3000);
    expect(ch.playout.tail.last!.kind).toBe('vod');
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toContain('live_not_found');
    const reloads = await play(ch, failedAt + 40_000);
    expect(checkReloads(reloads)).toEqual([]);
  });

  it('rides out a source answering 503 for less than 3 of its target durations: no switch out, no error', async () => {
    const { ch, start } = await channelWithEvent('blip');
    await play(ch, start + 20_000);
    ch.source.fail(503);
    const failedAt = ch.clock.now;
    const reloads = await play(ch, failedAt + 2 * ch.source.segmentMs);
    ch.source.fail(undefined);
    reloads.push(...(await play(ch, failedAt + 30_000)));
    expect(ch.playout.tail.last!.kind).toBe('live');
    expect(ch.am.errors).toEqual([]);
    expect(checkReloads(reloads)).toEqual([]);
    const live = segmentsSeen(reloads).filter((s) => ch.source.isLive(s.uri));
    expect(live.filter((s) => s.discontinuity)).toEqual([live[0]]);
  });

  it('returns to VOD2Live within 3 source target durations when the source keeps answering 503, never running dry', async () => {
    const { ch, start } = await channelWithEvent('down');
    await play(ch, start + 20_000);
    ch.source.fail(503);
    const failedAt = ch.clock.now;
    const { backAt } = await playNeverDry(ch, failedAt + 30_000);
    expect(backAt! - failedAt).toBeGreaterThan(ch.source.segmentMs);
    expect(backAt! - failedAt).toBeLessThanOrEqual((STALL_TARGET_DURATIONS + 1) * ch.source.segmentMs);
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toEqual(['live_unavailable']);
  });

  it('joins a source that answers 503 at its switch in once it answers again', async () => {
    const { ch, start } = await channelWithEvent('slow');
    ch.source.fail(503);
    const reloads = await play(ch, start - 8000);
    ch.source.fail(undefined);
    reloads.push(...(await play(ch, start + 20_000)));
    expect(checkReloads(reloads)).toEqual([]);
    expect(ch.am.errors).toEqual([]);
    const live = segmentsSeen(reloads).filter((s) => ch.source.isLive(s.uri));
    expect(live.length).toBeGreaterThan(0);
    expect(live[0]!.programDateTimeMs!).toBeLessThan(start + TD_MS);
  });

  it('gives up a source that keeps answering 503 at its switch in: VOD2Live, never running dry', async () => {
    const { ch, start } = await channelWithEvent('never');
    ch.source.fail(503);
    const { reloads, firstErrorAt: gaveUpAt } = await playNeverDry(ch, start + 30_000);
    expect(checkReloads(reloads)).toEqual([]);
    expect(segmentsSeen(reloads).filter((s) => ch.source.isLive(s.uri))).toEqual([]);
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toEqual(['live_unavailable']);
    // Asked again from the join (5 target durations before the start) until 2 remain.
    expect(gaveUpAt!).toBeGreaterThanOrEqual(start - 2 * TD_MS - 1000);
  });

  it('returns to VOD2Live at once when the source answers 403: asking again would meet the same answer', async () => {
    const { ch, start } = await channelWithEvent('denied');
    await play(ch, start + 10_000);
    ch.source.fail(403);
    await play(ch, ch.clock.now + 2000);
    expect(ch.playout.tail.last!.kind).toBe('vod');
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toEqual(['live_unavailable']);
  });

  it('refuses a source whose segments are longer than the target duration: the slate, and handleError', async () => {
    const ch = liveChannel();
    const long = fakeLiveSource(ch.world.origin, ch.clock, {
      base: 'https://live.test/long',
      segmentMs: 6000,
    });
    await ch.playout.advance();
    const start = ch.clock.now + 30_000;
    ch.playout.setSchedule([liveEvent('long', long.uri, start, start + 20_000)]);
    await play(ch, start + 30_000);
    const slate = ch.playout.tail.items.find((i) => i.eventId === 'long')!;
    expect(slate.kind).toBe('slate');
    expect(ch.am.errors.map((e) => (e.err as { code?: string }).code)).toContain('live_segments_too_long');
    expect(ch.playout.tail.items.some((i) => i.kind === 'live')).toBe(false);
  });

  it('lets the first of two overlapping LIVE events finish, then plays the second', async () => {
    const ch = liveChannel();
    const other = fakeLiveSource(ch.world.origin, ch.clock, { base: 'https://live.test/other' });
    await ch.playout.advance();
    const start = ch.clock.now + 30_000;
    ch.playout.setSchedule([
      liveEvent('first', ch.source.uri, start, start + 20_000),
      liveEvent('second', other.uri, start + 10_000, start + 40_000),
    ]);
    const reloads = await play(ch, start + 60_000);
    expect(checkReloads(reloads)).toEqual([]);
    const seen = segmentsSeen(reloads);
    const firstEnd = seen.findLastIndex((s) => ch.source.isLive(s.uri));
    const secondStart = seen.findIndex((s) => other.isLive(s.uri));
    expect(secondStart).toBe(firstEnd + 1);
    expect(seen[secondStart]!.discontinuity).toBe(true);
    expect(seen[firstEnd]!.programDateTimeMs! + 2000).toBeGreaterThanOrEqual(start + 20_000);
  });

  it('lets the first of two overlapping VOD events finish', async () => {
    const ch = liveChannel();
    await ch.playout.advance();
    const start = ch.clock.now + 30_000;
    const vodEvent = (eventId: string, startMs: number): ScheduleEvent => ({
      eventId,
      assetId: eventId,
      title: eventId,
      type: 2,
      start_time: startMs,
      end_time: startMs + 6000,
      uri: ch.world.preroll,
      duration: 6000,
    });
    ch.playout.setSchedule([vodEvent('one', start), vodEvent('two', start + 2000)]);
    await play(ch, start + 30_000);
    const items = ch.playout.tail.items;
    const one = items.find((i) => i.eventId === 'one')!;
    const two = items.find((i) => i.eventId === 'two')!;
    expect(one.durationMs).toBe(6000);
    expect(two.startMs).toBe(one.startMs + one.durationMs);
  });

  it('ignores and logs an event whose end is before its start; an empty schedule keeps VOD2Live', async () => {
    const ch = liveChannel();
    const warn = vi.spyOn(ch.core.log, 'warn');
    await ch.playout.advance();
    ch.playout.setSchedule([
      liveEvent('backwards', ch.source.uri, ch.clock.now + 20_000, ch.clock.now + 10_000),
    ]);
    ch.playout.setSchedule([
      liveEvent('backwards', ch.source.uri, ch.clock.now + 20_000, ch.clock.now + 10_000),
    ]);
    await play(ch, ch.clock.now + 40_000);
    ch.playout.setSchedule([]);
    await play(ch, ch.clock.now + 10_000);
    expect(ch.playout.tail.items.every((i) => i.kind === 'vod')).toBe(true);
    const ignored = warn.mock.calls.filter(([msg]) => String(msg).includes('end is not after its start'));
    expect(ignored).toHaveLength(1);
  });

  it('keeps VOD2Live and logs when getSchedule fails', async () => {
    const world = fakeWorld();
    const { core, clock } = makeCore(new ScriptedAssetManager(() => vodResponse(world.a)), {
      fetch: world.origin.fetch,
      streamSwitchManager: { getSchedule: () => Promise.reject(new Error('schedule service down')) },
    });
    const warn = vi.spyOn(core.log, 'warn');
    const { playout } = core.upsertChannel({ id: 'ch', name: 'ch' });
    await core.refreshSchedules();
    await playout.advance();
    clock.now += 30_000;
    await playout.advance();
    expect(warn).toHaveBeenCalledWith('getSchedule failed', expect.objectContaining({ channelId: 'ch' }));
    expect(playout.tail.items.every((i) => i.kind === 'vod')).toBe(true);
  });

  it('serves byte-identical playlists from two engines sharing the log through both switches', async () => {
    const { a, b, start } = await twoEngines(20_000);
    let liveSeen = 0;
    for (let n = 0, end = start + 50_000; a.clock.now < end; a.clock.now += 1000, n++) {
      // The two engines advance at different moments of the same second, each first in turn: the
      // writer lease, and so the following of the source, moves between them.
      for (const e of n % 2 ? [a, b] : [b, a])
        if (e.playout.nextWakeMs() <= a.clock.now) await e.playout.advance();
      const one = await a.playlists.mediaPlaylist('v1');
      expect(await b.playlists.mediaPlaylist('v1')).toBe(one);
      if (one.includes('/cam/')) liveSeen++;
    }
    expect(liveSeen).toBeGreaterThan(10);
    // The source never stalled: the event played to its end, whichever engine appended.
    const live = a.playout.tail.items.filter((i) => i.kind === 'live');
    expect(live.at(-1)!.startMs + live.at(-1)!.durationMs).toBeGreaterThanOrEqual(start + 20_000);
  });

  it('rides out a 503 on an engine that takes the writer lease over after the other appended for a while', async () => {
    const { a, b, start } = await twoEngines(40_000);
    const run = async (engines: Channel[], untilMs: number) => {
      for (; a.clock.now < untilMs; a.clock.now += 1000)
        for (const e of engines) if (e.playout.nextWakeMs() <= a.clock.now) await e.playout.advance();
    };
    await run([a, b], start + 6000);
    // B stands by while A follows the source alone, then A dies as the source fails for a moment.
    await run([a], start + 16_000);
    for (const e of [a, b]) e.source.fail(503);
    await run([b], a.clock.now + TD_MS);
    for (const e of [a, b]) e.source.fail(undefined);
    await run([b], start + 40_000);
    expect(b.am.errors).toEqual([]);
    const live = b.playout.tail.items.filter((i) => i.kind === 'live');
    expect(live.at(-1)!.startMs + live.at(-1)!.durationMs).toBeGreaterThanOrEqual(start + 40_000);
  });
});
