/** The verdict of a browser viewing (test/support/browser.ts), its arithmetic checked without a browser. */
import { describe, expect, it } from 'vitest';
import { type RawBrowserReport, summarizePlayback } from '../support/browser';

describe('summarizePlayback', () => {
  const raw = (over: Partial<RawBrowserReport>): RawBrowserReport => ({
    src: 'http://x/master.m3u8',
    hlsVersion: 'test',
    hlsSupported: true,
    firstPlayingAtMs: 1000,
    errors: [],
    mediaEvents: [{ atMs: 1000, type: 'playing', currentTime: 50 }],
    samples: [{ atMs: 11_000, currentTime: 59, bufferedEnd: 62, paused: false, readyState: 4 }],
    levels: [],
    frags: [],
    pageErrors: [],
    audioTracks: [],
    audioFrags: [],
    cues: [],
    subtitleFrags: [],
    interstitials: [],
    ...over,
  });
  const frag = (atMs: number, cc: number) => ({ atMs, sn: atMs, cc, level: 0, url: `http://x/${atMs}.ts` });

  it('measures played media time against wall time from the first playing event', () => {
    const play = summarizePlayback(raw({}));
    expect(play).toMatchObject({ started: true, currentTimeStart: 50, currentTimeEnd: 59 });
    expect(play.playedSeconds).toBeCloseTo(9);
    expect(play.wallSeconds).toBeCloseTo(10);
  });

  it('counts waiting and stalled events after playback started as stalls, not the initial wait', () => {
    const mediaEvents = [
      { atMs: 100, type: 'waiting', currentTime: 0 },
      { atMs: 1000, type: 'playing', currentTime: 50 },
      { atMs: 4000, type: 'waiting', currentTime: 53 },
      { atMs: 4100, type: 'stalled', currentTime: 53 },
    ];
    expect(summarizePlayback(raw({ mediaEvents })).stalls).toBe(2);
  });

  it('counts a discontinuity each time the fragment discontinuity counter changes', () => {
    const frags = [frag(1, 4), frag(2, 4), frag(3, 5), frag(4, 6), frag(5, 6)];
    expect(summarizePlayback(raw({ frags })).discontinuitiesCrossed).toBe(2);
  });

  it('reports a playback that never started as not started, with nothing played', () => {
    const fatal = {
      atMs: 500,
      wallMs: 1_000_500,
      type: 'networkError',
      details: 'manifestLoadError',
      fatal: true,
      url: 'http://x/master.m3u8',
      status: 404,
      reason: null,
    };
    const play = summarizePlayback(raw({ firstPlayingAtMs: null, mediaEvents: [], errors: [fatal] }));
    expect(play).toMatchObject({ started: false, playedSeconds: 0, wallSeconds: 0, fatalErrors: [fatal] });
  });
});
