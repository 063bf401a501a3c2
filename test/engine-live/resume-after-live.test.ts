/**
 * docs/live-mixing.md "After the event", on a fake clock: when the asset manager resumes after live
 * events (IAssetManager.resumesAfterLive: the host's Loop and WebHook channels), a LIVE event's end
 * gives back the VOD where the event cut it, then the items already planned after it, without asking
 * the asset manager again; an asset manager that does not (a schedule) is asked, as before.
 */
import { describe, expect, it } from 'vitest';
import type { PlayoutItem } from '../../engine-container/src/playout/item';
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import type { ScheduleEvent, VodResponse } from '../../engine-container/src/types';
import { fakeWorld, makeCore, ScriptedAssetManager, vodResponse } from '../engine/helpers/engine-fixtures';
import { fakeLiveSource } from '../engine/helpers/fake-live-source';
import { type MediaPlaylist, parseMediaPlaylist } from '../support/hls-playlist';
import { checkReloads } from '../support/live-rules';

class ResumingAssetManager extends ScriptedAssetManager {
  resumesAfterLive(): boolean {
    return true;
  }
}

type World = ReturnType<typeof fakeWorld>;

function channelWith(resumes: boolean, script: (world: World, call: number) => VodResponse) {
  const world = fakeWorld();
  const store = new InMemoryPlayoutLogStore();
  const answer = (call: number) => script(world, call);
  const am = resumes ? new ResumingAssetManager(answer) : new ScriptedAssetManager(answer);
  const made = makeCore(am, { fetch: world.origin.fetch, defaultSlateUri: world.slate, logStore: store });
  const runtime = made.core.upsertChannel({ id: 'ch', name: 'ch' });
  const source = fakeLiveSource(world.origin, made.clock);
  return { world, am, store, source, ...made, ...runtime };
}
type Channel = ReturnType<typeof channelWith>;

const liveEvent = (startMs: number, endMs: number, uri: string): ScheduleEvent => ({
  eventId: 'match',
  assetId: 'match',
  title: 'Match',
  type: 1,
  start_time: startMs,
  end_time: endMs,
  uri,
});

/**
 * Plays the channel second by second with a 30 s LIVE event 48.5 s in (mid-way through an item of
 * world.a: 20 s of 2 s segments), to 50 s after it. Returns the v0 segments seen, in order, every
 * log item written.
 */
async function playThroughEvent(ch: Channel, announcedBeforeMs = 48_500) {
  await ch.playout.advance();
  const start = ch.clock.now + 48_500;
  const reloads: MediaPlaylist[] = [];
  const logged = new Map<number, PlayoutItem>();
  for (; ch.clock.now < start + 80_000; ch.clock.now += 1000) {
    if (ch.clock.now === start - announcedBeforeMs)
      ch.playout.setSchedule([liveEvent(start, start + 30_000, ch.source.uri)]);
    if (ch.playout.nextWakeMs() <= ch.clock.now) await ch.playout.advance();
    reloads.push(parseMediaPlaylist(await ch.playlists.mediaPlaylist('v0')));
    const items = await ch.store.read('ch');
    for (const item of items) logged.set(item.seq, item);
  }
  expect(checkReloads(reloads)).toEqual([]);
  const byMsn = new Map<number, MediaPlaylist['segments'][number]>();
  for (const r of reloads) for (const s of r.segments) byMsn.set(s.mediaSequence, s);
  const seen = [...byMsn.values()].sort((a, b) => a.mediaSequence - b.mediaSequence);
  const firstLive = seen.findIndex((s) => ch.source.isLive(s.uri));
  const afterLive = seen.findLastIndex((s) => ch.source.isLive(s.uri)) + 1;
  return {
    before: seen.slice(0, firstLive).map((s) => s.uri),
    after: seen.slice(afterLive).map((s) => s.uri),
    items: [...logged.values()].sort((a, b) => a.seq - b.seq),
  };
}

/** "https://origin.test/a/v0/s4.ts" -> "a/s4". */
const short = (uri: string) => uri.replace(/^.*\/(\w+)\/v0\/(\w+)\.ts$/, '$1/$2');

describe('after a LIVE event', () => {
  it('a Loop channel resumes its VOD at the segment after the last one it played, and then loops on', async () => {
    const ch = channelWith(true, (w) => vodResponse(w.a));
    const { before, after } = await playThroughEvent(ch);
    expect(before.at(-1)).toBeDefined();
    const cutAt = Number(short(before.at(-1)!).slice(3));
    expect(cutAt).toBeLessThan(9);
    const resumed = Array.from({ length: 9 - cutAt }, (_, i) => `a/s${cutAt + 1 + i}`);
    expect(after.slice(0, resumed.length + 1).map(short)).toEqual([...resumed, 'a/s0']);
  });

  it('a Loop channel resumes its VOD also when the event, announced late, cut into it as it played', async () => {
    const ch = channelWith(true, (w) => vodResponse(w.a));
    const { before, after, items } = await playThroughEvent(ch, 4_500);
    const live = items.find((i) => i.kind === 'live')!;
    expect(live.resumes?.[0]).toMatchObject({ kind: 'vod', uri: ch.world.a });
    const cutAt = Number(short(before.at(-1)!).slice(3));
    expect(cutAt).toBeLessThan(9);
    expect(short(after[0]!)).toBe(`a/s${cutAt + 1}`);
  });

  it('a channel whose asset manager plays a schedule asks it again instead (the VOD starts over here)', async () => {
    const ch = channelWith(false, (w) => vodResponse(w.a));
    const { before, after } = await playThroughEvent(ch);
    expect(short(before.at(-1)!)).not.toBe('a/s9');
    expect(short(after[0]!)).toBe('a/s0');
  });

  it('a WebHook channel resumes the item it was playing, from where it was cut, then asks for the next', async () => {
    const ch = channelWith(true, (w, call) => vodResponse(w.a, { id: `item-${call}` }));
    const { items } = await playThroughEvent(ch);
    const firstLive = items.findIndex((i) => i.kind === 'live');
    const lastLive = items.findLastIndex((i) => i.kind === 'live');
    const live = items[firstLive]!;
    const cut = items[firstLive - 1]!;
    const playedMs = live.startMs - cut.startMs;
    expect(items[lastLive + 1]).toMatchObject({
      kind: 'vod',
      id: cut.id,
      offsetMs: cut.offsetMs + playedMs,
      durationMs: (cut.fullDurationMs ?? cut.durationMs) - playedMs,
    });
    // Every answer is played: the call after the cut item's answers the item after the resumed one.
    const call = (id: string) => Number(id.replace('item-', ''));
    expect(call(items[lastLive + 2]!.id)).toBe(call(cut.id) + 1);
    expect(ch.am.requests.length).toBe(call(items.at(-1)!.id) + 1);
  });
});
