/**
 * Entries added to a schedule channel while it plays its slate, with less notice than the channel's
 * look-ahead (about three target durations): each starts at the first segment boundary the engine can
 * still reach once its loops have read the change (at or after the entry's start, and far enough ahead
 * of the clock that no player has seen what the cut replaces), and plays until its end. Driven on a
 * fake clock through the real schedule plug-in, as the engine's loops drive it.
 */
import { describe, expect, it } from 'vitest';
import { type Aired, scheduleSystem, T0 } from './support/schedule-system';

/** The slate's and the VODs' segments (test/engine/helpers/engine-fixtures.ts). */
const SEGMENT_MS = 2000;
/** The engine's margin ahead of the clock for a cut (channel/cuts.ts cutMarginMs, in-memory store). */
const MARGIN_MS = 1000;
/** world.a: 20 s of 2 s segments. */
const VOD_MS = 20_000;

/** A channel made before its entries, playing its slate (its only entry an hour away). */
async function onSlate() {
  const system = scheduleSystem();
  system.add('film', 'VOD', T0 + 3_600_000, T0 + 3_600_000 + VOD_MS);
  await system.run(T0 + 90_000);
  const aired = await system.aired();
  expect(aired.at(-1)!.kind).toBe('slate');
  return system;
}

/** The entry's items as they air, in order. */
const itemsOf = (aired: Aired[], id: string) => aired.filter((i) => i.id === id || i.eventId === id);

describe('a VOD entry added to a schedule channel playing its slate', () => {
  it.each([5_000, 15_000, 25_000, -5_000, 120_000])(
    'added %i ms before its start starts at the first boundary the engine can reach and plays to its end',
    async (noticeMs) => {
      const system = await onSlate();
      const announcedAt = system.clock.now;
      const entry = system.add('late', 'VOD', announcedAt + noticeMs, announcedAt + noticeMs + VOD_MS);
      await system.run(entry.end_time + 40_000);

      const reachable = Math.max(entry.start_time, system.learnedAt(announcedAt) + MARGIN_MS);
      const played = itemsOf(await system.aired(), 'late');
      expect(played.length).toBeGreaterThan(0);
      const first = played[0]!;
      expect(first.startMs).toBeGreaterThanOrEqual(reachable);
      expect(first.startMs - reachable).toBeLessThan(SEGMENT_MS);
      // Joined where the schedule's clock is (the VOD's segment holding that instant).
      const offset = first.startMs - entry.start_time;
      expect(first.offsetMs).toBe(offset - (offset % SEGMENT_MS));
      const last = played.at(-1)!;
      expect(last.endMs).toBeGreaterThanOrEqual(entry.end_time);
      expect(last.endMs - entry.end_time).toBeLessThan(SEGMENT_MS);
    },
  );
});

describe('a schedule edit that concerns nothing the log has planned', () => {
  it('cuts nothing: an entry added beyond the log is asked for when the log gets there', async () => {
    const system = await onSlate();
    const planned = await system.aired();
    const entry = system.add('later', 'VOD', system.clock.now + 120_000, system.clock.now + 140_000);
    await system.run(system.clock.now + 30_000);
    const aired = await system.aired();
    expect(aired.slice(0, planned.length)).toEqual(planned);
    await system.run(entry.end_time + 10_000);
    expect(itemsOf(await system.aired(), 'later')[0]!.startMs - entry.start_time).toBeLessThan(SEGMENT_MS);
  });

  it('a VOD entry deleted after it was planned is replaced by the slate from the first boundary the engine can reach', async () => {
    const system = await onSlate();
    const entry = system.add('dropped', 'VOD', system.clock.now + 40_000, system.clock.now + 60_000);
    await system.run(entry.start_time - 15_000);
    expect(itemsOf(await system.aired(), 'dropped')).toHaveLength(1);
    system.remove('dropped');
    await system.run(entry.end_time + 10_000);
    const aired = await system.aired();
    expect(itemsOf(aired, 'dropped')).toEqual([]);
    const atStart = aired.find((i) => i.startMs <= entry.start_time && i.endMs > entry.start_time)!;
    expect(atStart.kind).toBe('slate');
  });
});

describe('a VOD entry added late to a channel that several engines play', () => {
  it('is cut in once, by whichever engine sees the change first', async () => {
    const system = scheduleSystem({ engines: 3 });
    system.add('film', 'VOD', T0 + 3_600_000, T0 + 3_600_000 + VOD_MS);
    await system.run(T0 + 90_000);
    const entry = system.add('late', 'VOD', system.clock.now + 15_000, system.clock.now + 15_000 + VOD_MS);
    await system.run(entry.end_time + 20_000);
    const played = itemsOf(await system.aired(), 'late');
    expect(played).toHaveLength(1);
    expect(played[0]!.offsetMs).toBe(0);
    // Not cut in again, over itself, by the engines that saw the change later.
    const logged = await system.core.store.read(system.channelId);
    expect(logged.filter((i) => i.id === 'late')).toHaveLength(1);
  });
});

describe('a LIVE entry added to a schedule channel playing its slate', () => {
  it.each([5_000, 15_000, 25_000, -5_000, 120_000])(
    'added %i ms before its start switches in at the first boundary the engine can reach and plays to its end',
    async (noticeMs) => {
      const system = await onSlate();
      const announcedAt = system.clock.now;
      const entry = system.add('match', 'LIVE', announcedAt + noticeMs, announcedAt + noticeMs + 30_000);
      await system.run(entry.end_time + 40_000);

      const reachable = Math.max(entry.start_time, system.learnedAt(announcedAt) + MARGIN_MS);
      const played = itemsOf(await system.aired(), 'match');
      expect(played.map((i) => i.kind)).toEqual(played.map(() => 'live'));
      const first = played[0]!;
      expect(first.startMs).toBeGreaterThanOrEqual(reachable);
      expect(first.startMs - reachable).toBeLessThan(SEGMENT_MS);
      const last = played.at(-1)!;
      expect(last.endMs).toBeGreaterThanOrEqual(entry.end_time);
      expect(last.endMs - entry.end_time).toBeLessThan(SEGMENT_MS);
    },
  );
});

describe('a schedule channel made before any entry, off air while nothing is scheduled', () => {
  /** The first time the channel's log holds an item, stepping the system half a second at a time. */
  async function onAirAt(system: ReturnType<typeof scheduleSystem>, deadlineMs: number): Promise<number> {
    while ((await system.core.store.read(system.channelId)).length === 0 && system.clock.now < deadlineMs)
      await system.run(system.clock.now + 500);
    return system.clock.now;
  }

  it('asks its asset manager less and less often while it waits, down to every 30 s', async () => {
    const system = scheduleSystem();
    const asks: number[] = [];
    const upcoming = system.plugin.assetManager.upcomingContent.bind(system.plugin.assetManager);
    system.plugin.assetManager.upcomingContent = (req) => {
      asks.push(system.clock.now - T0);
      return upcoming(req);
    };
    await system.run(T0 + 300_000);
    expect(await system.core.store.read(system.channelId)).toEqual([]);
    // After 2, 4, 8 and 16 s, then every 30 s (WAITING_RETRY_MAX_MS): asked every 2 s, it was 150 asks.
    const gaps = asks.slice(1).map((at, k) => at - asks[k]!);
    expect(gaps.slice(0, 4)).toEqual([2000, 4000, 8000, 16_000]);
    expect(new Set(gaps.slice(4))).toEqual(new Set([30_000]));
  });

  it('goes on air at the first schedule poll after its first VOD entry is made, however long it waited', async () => {
    const system = scheduleSystem();
    // Between two of its looks (every 30 s by then): the next one is 23 s away.
    await system.run(T0 + 307_000);
    const announcedAt = system.clock.now;
    const entry = system.add('first', 'VOD', announcedAt + 10_000, announcedAt + 10_000 + VOD_MS);
    const onAir = await onAirAt(system, entry.end_time);
    // Woken by the change the schedule poll reads (contentChangedFrom), not by its next look, 30 s away.
    expect(onAir - system.learnedAt(announcedAt)).toBeLessThanOrEqual(500);
    await system.run(entry.end_time + 10_000);
    expect(itemsOf(await system.aired(), 'first')[0]!.startMs - entry.start_time).toBeLessThan(SEGMENT_MS);
  });
});
