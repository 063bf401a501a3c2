import { describe, expect, it } from 'vitest';
import {
  droppedBefore,
  excuseGivenUpHoles,
  isOwnAbort,
  isPlayersNote,
  judgeStall,
  type Listing,
} from '../support/stall-kinds';

/** The CI run's hole (2026-11-29): audio buffered to 66.0 and again from 68.01, video throughout. */
const hole = judgeStall(
  {
    atMs: 21_800,
    wallMs: 1_000_000,
    currentTime: 65.96,
    tracks: {
      video: [[54, 74]],
      audio: [
        [54, 66],
        [68.01, 74],
      ],
    },
  },
  [],
);
const loadFailed = (type: string, start: number, details = 'aborted') => ({
  details,
  frag: { type, start, duration: 2 },
});

describe('a load hls.js abandoned itself', () => {
  it("is the player's note, never the server's answer, unless fatal", () => {
    const aborted = { atMs: 5514, details: 'aborted', fatal: false };
    expect(isOwnAbort(aborted)).toBe(true);
    expect(isPlayersNote(aborted, [])).toBe(true);
    expect(isOwnAbort({ ...aborted, fatal: true })).toBe(false);
    expect(isPlayersNote({ ...aborted, details: 'fragLoadError' }, [])).toBe(false);
  });
});

describe('a hole where hls.js gave up a fragment', () => {
  it("is the stream's when no fragment of that track was given up there", () => {
    expect(hole.stream).toBe(true);
    expect(excuseGivenUpHoles([hole], [])).toEqual([hole]);
    expect(excuseGivenUpHoles([hole], [loadFailed('audio', 70)])).toEqual([hole]);
    expect(excuseGivenUpHoles([hole], [loadFailed('main', 66, 'fragLoadError')])[0]!.stream).toBe(false);
  });

  it("is the player's when the fragment given up covers it, and says so", () => {
    const [judged] = excuseGivenUpHoles([hole], [loadFailed('audio', 66, 'fragLoadError')]);
    expect(judged!.stream).toBe(false);
    expect(judged!.detail).toBe(
      'audio has a hole of 2010 ms at 65.960, where hls.js gave up a fragment (fragLoadError)',
    );
  });

  it("stays the stream's when the fragment given up fed another track", () => {
    const videoHole = { ...hole, hole: { ...hole.hole!, track: 'video' } };
    expect(excuseGivenUpHoles([videoHole], [loadFailed('audio', 66)])).toEqual([videoHole]);
  });
});

describe('a segment the channel had stopped listing', () => {
  const seg = 'http://127.0.0.1:9/vEnglish_9.m4s';
  const listings: Listing[] = [
    { playlist: 'audio/en.m3u8', wallMs: 1000, uris: new Set([seg]) },
    { playlist: '0.m3u8', wallMs: 2500, uris: new Set(['http://127.0.0.1:9/v0_9.m4s']) },
    { playlist: 'audio/en.m3u8', wallMs: 3000, uris: new Set([seg]) },
    { playlist: 'audio/en.m3u8', wallMs: 5000, uris: new Set() },
  ];

  it('was dropped once the latest reload of its playlist by then no longer lists it', () => {
    expect(droppedBefore(listings, seg, 5000)).toBe(true);
    expect(droppedBefore(listings, seg, 9000)).toBe(true);
  });

  it('counts as listed while its playlist still listed it, or before any reload of it', () => {
    expect(droppedBefore(listings, seg, 4999)).toBe(false);
    expect(droppedBefore(listings, seg, 500)).toBe(false);
  });

  it('counts as listed when the channel never listed it at all', () => {
    expect(droppedBefore(listings, 'http://127.0.0.1:9/other.m4s', 9000)).toBe(false);
  });
});
