import { describe, expect, it } from 'vitest';
import { buildAsRun } from '../../engine-container/src/asrun/build-asrun';
import type { PlayoutItem } from '../../engine-container/src/playout/item';

const T0 = Date.UTC(2026, 10, 26, 12);

/** A log item with only what the as-run reads filled in meaningfully. */
function item(
  seq: number,
  startMs: number,
  durationMs: number,
  over: Partial<PlayoutItem> = {},
): PlayoutItem {
  return {
    seq,
    startMs,
    kind: 'vod',
    id: `a${seq}`,
    title: `Asset ${seq}`,
    uri: `https://vod.example/${seq}/master.m3u8`,
    offsetMs: 0,
    durationMs,
    loop: 0,
    targetDurationS: 2,
    ladder: { variants: [], audio: [], subtitles: [] } as unknown as PlayoutItem['ladder'],
    segmentsBefore: {},
    discontinuitiesBefore: {},
    ...over,
  };
}

const live = (seq: number, startMs: number, durationMs: number, inMs: number, eventEndMs: number) =>
  item(seq, startMs, durationMs, {
    kind: 'live',
    id: 'match',
    title: 'The match',
    eventId: 'ev-1',
    live: { msn: seq, segments: {}, inMs, eventEndMs },
  });

describe('the as-run log of a playout log', () => {
  it('lists each item that aired with its start and end on the wall clock', () => {
    const log = [item(0, T0, 60_000), item(1, T0 + 60_000, 30_000)];
    expect(buildAsRun(log, T0 + 90_000)).toEqual([
      { startMs: T0, endMs: T0 + 60_000, durationMs: 60_000, kind: 'vod', id: 'a0', title: 'Asset 0' },
      {
        startMs: T0 + 60_000,
        endMs: T0 + 90_000,
        durationMs: 30_000,
        kind: 'vod',
        id: 'a1',
        title: 'Asset 1',
      },
    ]);
  });

  it('leaves out what has not ended yet', () => {
    const log = [item(0, T0, 60_000), item(1, T0 + 60_000, 30_000)];
    expect(buildAsRun(log, T0 + 89_999).map((e) => e.id)).toEqual(['a0']);
  });

  it('ends an item cut short by a reset where the reset starts, and leaves out the item it voided', () => {
    // a1 was queued after a0; the reset's a2 starts inside a0, so a1 never aired.
    const log = [item(0, T0, 60_000), item(1, T0 + 60_000, 60_000), item(2, T0 + 20_000, 30_000)];
    expect(buildAsRun(log, T0 + 60_000).map((e) => [e.id, e.startMs - T0, e.endMs - T0])).toEqual([
      ['a0', 0, 20_000],
      ['a2', 20_000, 50_000],
    ]);
  });

  it('gives a preroll its ad break: cue-out at its start, cue-in at the next item, and the announced duration', () => {
    const log = [
      item(0, T0, 6_000, { kind: 'preroll', id: 'preroll', title: 'preroll' }),
      item(1, T0 + 6_000, 60_000),
    ];
    const [ad] = buildAsRun(log, T0 + 66_000);
    expect(ad).toMatchObject({
      kind: 'preroll',
      adBreak: {
        cueOutMs: T0,
        cueInMs: T0 + 6_000,
        durationMs: 6_000,
        plannedDurationMs: 6_000,
        delivery: 'spliced',
      },
    });
  });

  it("gives an item with an interstitial an ad break at its start, offered, with the channel's timeline unmoved", () => {
    const log = [
      item(0, T0, 60_000, { interstitial: { uri: 'https://ads.example.com/a.m3u8', durationMs: 6_000 } }),
      item(1, T0 + 60_000, 60_000),
    ];
    const [vod, next] = buildAsRun(log, T0 + 120_000);
    expect(vod).toMatchObject({
      kind: 'vod',
      startMs: T0,
      endMs: T0 + 60_000,
      adBreak: {
        cueOutMs: T0,
        cueInMs: T0,
        durationMs: 6_000,
        plannedDurationMs: 6_000,
        delivery: 'interstitial',
      },
    });
    expect(next!.adBreak).toBeUndefined();
  });

  it('reports a synthetic gap as a slate, with the cause in public words', () => {
    const log = [
      item(0, T0, 10_000, { kind: 'gap', id: 'gap', title: 'gap', reason: 'gap' }),
      item(1, T0 + 10_000, 20_000, {
        kind: 'slate',
        id: 'slate',
        title: 'slate',
        reason: 'https://x/y: 404',
      }),
    ];
    expect(buildAsRun(log, T0 + 30_000).map((e) => [e.kind, e.reason])).toEqual([
      ['slate', 'gap'],
      ['slate', 'vod_error'],
    ]);
  });

  it('makes one entry of a live event from switch in to switch out, ended as scheduled', () => {
    const inMs = T0 + 60_000;
    const log = [
      item(0, T0, 60_000),
      live(1, inMs, 10_000, inMs, inMs + 29_000),
      live(2, inMs + 10_000, 4_000, inMs, inMs + 29_000),
      live(3, inMs + 14_000, 16_000, inMs, inMs + 29_000),
      item(4, inMs + 30_000, 60_000),
    ];
    const entries = buildAsRun(log, inMs + 40_000);
    expect(entries[1]).toEqual({
      startMs: inMs,
      endMs: inMs + 30_000,
      durationMs: 30_000,
      kind: 'live',
      id: 'match',
      title: 'The match',
      eventId: 'ev-1',
      live: { inMs, outMs: inMs + 30_000, outReason: 'scheduled_end' },
    });
    expect(entries).toHaveLength(2);
  });

  it('says a live event whose source stopped before its scheduled end failed', () => {
    const inMs = T0 + 60_000;
    const log = [
      item(0, T0, 60_000),
      live(1, inMs, 10_000, inMs, inMs + 600_000),
      item(2, inMs + 10_000, 60_000),
    ];
    expect(buildAsRun(log, inMs + 10_000)[1]!.live?.outReason).toBe('source_failed');
  });

  it('says a live event cut by a reset was interrupted', () => {
    const inMs = T0 + 60_000;
    const log = [
      item(0, T0, 60_000),
      live(1, inMs, 10_000, inMs, inMs + 600_000),
      item(2, inMs + 4_000, 60_000),
    ];
    expect(buildAsRun(log, inMs + 4_000)[1]).toMatchObject({
      endMs: inMs + 4_000,
      live: { outMs: inMs + 4_000, outReason: 'interrupted' },
    });
  });

  it('waits for a live event to be followed before it reports it', () => {
    const inMs = T0 + 60_000;
    const log = [item(0, T0, 60_000), live(1, inMs, 10_000, inMs, inMs + 10_000)];
    expect(buildAsRun(log, inMs + 20_000).map((e) => e.kind)).toEqual(['vod']);
  });

  it('gives a live event the same entry from a log tail that starts mid-event', () => {
    const inMs = T0 + 60_000;
    const log = [
      item(0, T0, 60_000),
      live(1, inMs, 10_000, inMs, inMs + 20_000),
      live(2, inMs + 10_000, 10_000, inMs, inMs + 20_000),
      item(3, inMs + 20_000, 60_000),
    ];
    const whole = buildAsRun(log, inMs + 30_000).find((e) => e.kind === 'live');
    const fromTail = buildAsRun(log.slice(2), inMs + 30_000).find((e) => e.kind === 'live');
    expect(fromTail).toEqual(whole);
  });

  it('keeps two live events back to back apart', () => {
    const a = T0;
    const log = [
      live(0, a, 10_000, a, a + 10_000),
      { ...live(1, a + 10_000, 10_000, a + 10_000, a + 20_000), eventId: 'ev-2' },
      item(2, a + 20_000, 60_000),
    ];
    expect(buildAsRun(log, a + 20_000).map((e) => [e.eventId, e.startMs - a, e.endMs - a])).toEqual([
      ['ev-1', 0, 10_000],
      ['ev-2', 10_000, 20_000],
    ]);
  });
});
