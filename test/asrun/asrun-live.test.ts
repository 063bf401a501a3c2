/**
 * The as-run log of live events played by the real engine on a fake clock (live mixing with a fake
 * live source): one entry from the switch in to the switch out, with why it went off air, and the
 * same entry from any engine's view of the log.
 */
import { describe, expect, it } from 'vitest';
import { buildAsRun } from '../../engine-container/src/asrun/build-asrun';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { ScheduleEvent } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { fakeLiveSource } from '../engine/helpers/fake-live-source';
import { parseMediaPlaylist } from '../support/hls-playlist';

function liveChannel() {
  const world = fakeWorld();
  const store = new InMemoryPlayoutLogStore();
  const am = new ScriptedAssetManager(() => vodResponse(world.a));
  const made = makeCore(am, { fetch: world.origin.fetch, defaultSlateUri: world.slate, logStore: store });
  const runtime = made.core.upsertChannel({ id: 'ch', name: 'ch' });
  const source = fakeLiveSource(world.origin, made.clock);
  return { store, source, ...made, ...runtime };
}
type Channel = ReturnType<typeof liveChannel>;

const liveEvent = (uri: string, startMs: number, endMs: number): ScheduleEvent => ({
  eventId: 'match',
  assetId: 'match-asset',
  title: 'The match',
  type: 1,
  start_time: startMs,
  end_time: endMs,
  uri,
});

/** Plays second by second; returns the PROGRAM-DATE-TIME of the first live segment v0 listed. */
async function play(ch: Channel, untilMs: number): Promise<number | undefined> {
  let firstLivePdt: number | undefined;
  for (; ch.clock.now < untilMs; ch.clock.now += 1000) {
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    const playlist = parseMediaPlaylist(await ch.playlists.mediaPlaylist('v0'));
    const live = playlist.segments.find((s) => ch.source.isLive(s.uri));
    if (live && firstLivePdt === undefined) firstLivePdt = live.programDateTimeMs;
  }
  return firstLivePdt;
}

describe('the as-run log of a live event', () => {
  it('is one entry from the first live segment to the switch out, ended as scheduled', async () => {
    const ch = liveChannel();
    await ch.playout.advance();
    const start = ch.clock.now + 40_500;
    ch.playout.setSchedule([liveEvent(ch.source.uri, start, start + 30_000)]);
    const firstLivePdt = await play(ch, start + 70_000);
    const log = await ch.store.read('ch');
    const live = buildAsRun(log, ch.clock.now).filter((e) => e.kind === 'live');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      id: 'match-asset',
      title: 'The match',
      eventId: 'match',
      startMs: firstLivePdt,
      live: { inMs: firstLivePdt, outReason: 'scheduled_end' },
    });
    expect(live[0]!.endMs).toBeGreaterThanOrEqual(start + 30_000);
    // Every live item of the event is one entry however much of the log an engine still holds.
    const lastLive = log.findLastIndex((i) => i.kind === 'live');
    expect(buildAsRun(log.slice(lastLive), ch.clock.now).find((e) => e.kind === 'live')).toEqual(live[0]);
  });

  it('says the source failed when it went away before the scheduled end', async () => {
    const ch = liveChannel();
    await ch.playout.advance();
    const start = ch.clock.now + 30_000;
    ch.playout.setSchedule([liveEvent(ch.source.uri, start, start + 120_000)]);
    await play(ch, start + 10_000);
    ch.source.fail(404);
    await play(ch, ch.clock.now + 30_000);
    const live = buildAsRun(await ch.store.read('ch'), ch.clock.now).filter((e) => e.kind === 'live');
    expect(live).toHaveLength(1);
    expect(live[0]!.live?.outReason).toBe('source_failed');
    expect(live[0]!.endMs).toBeLessThan(start + 120_000);
  });
});
