import { describe, expect, it } from 'vitest';
import {
  type BufferedFrag,
  isPlayersHaltNote,
  isPlayersNote,
  isStartUpSeek,
  type JudgedStall,
  judgeStall,
  playersHaltSeconds,
  type StallBuffers,
  seamAudioHoleHalts,
  streamHaltProblems,
} from '../support/stall-kinds';

const STALL_WALL_MS = 1_000_000;
const stall = (tracks: StallBuffers['tracks'], currentTime = 10): StallBuffers => ({
  atMs: 5000,
  wallMs: STALL_WALL_MS,
  currentTime,
  tracks,
});
/** A 2 s main fragment at media time 10, published (PDT + duration) publishedMs after the halt. */
const nextFrag = (publishedMs: number): BufferedFrag => ({
  wallMs: STALL_WALL_MS + 3000,
  type: 'main',
  start: 10,
  duration: 2,
  pdtMs: STALL_WALL_MS + publishedMs - 2000,
});

describe('judging a halt', () => {
  it('blames the stream for a track with a hole at the playhead, naming its size', () => {
    const judged = judgeStall(
      stall({
        video: [[0, 12]],
        audio: [
          [0, 9.99],
          [10.2, 12],
        ],
      }),
      [],
    );
    expect(judged).toMatchObject({ kind: 'hole', stream: true });
    expect(judged.detail).toContain('audio has a hole of 210 ms');
    expect(judged.hole).toEqual({ track: 'audio', fromS: 9.99, toS: 10.2 });
  });

  it('blames the player when a track ran dry waiting for a fragment published before then', () => {
    const judged = judgeStall(stall({ video: [[0, 10]], audio: [[0, 10.01]] }), [nextFrag(-1500)]);
    expect(judged).toMatchObject({ kind: 'starved', stream: false });
  });

  it('blames the stream when the fragment a dry track waited for was published after it ran dry', () => {
    const judged = judgeStall(stall({ video: [[0, 10]], audio: [[0, 12]] }), [nextFrag(500)]);
    expect(judged).toMatchObject({ kind: 'late', stream: true });
  });

  it('blames the stream when no fragment came after a track ran dry', () => {
    expect(judgeStall(stall({ video: [[0, 10]] }), [])).toMatchObject({ kind: 'late', stream: true });
  });

  it('waits on the fragment buffered after the halt, not one buffered before and flushed since', () => {
    const flushed = { ...nextFrag(-5000), wallMs: STALL_WALL_MS - 500 };
    const judged = judgeStall(stall({ video: [[0, 10]] }), [flushed]);
    expect(judged).toMatchObject({ kind: 'late', stream: true });
  });

  it('blames the player when every track held data at the playhead', () => {
    const judged = judgeStall(stall({ video: [[0, 14]], audio: [[0, 14]] }), []);
    expect(judged).toMatchObject({ kind: 'held-data', stream: false });
  });

  it('feeds a dry audio track from audio fragments when the channel has an audio rendition', () => {
    const audio = { ...nextFrag(500), type: 'audio' };
    const judged = judgeStall(stall({ video: [[0, 14]], audio: [[0, 10]] }), [nextFrag(-3000), audio]);
    expect(judged).toMatchObject({ kind: 'late', stream: true });
  });
});

describe("hls.js's notes of a halt", () => {
  const players = judgeStall(stall({ video: [[0, 14]], audio: [[0, 14]] }), []);
  const streams = judgeStall(stall({ video: [[0, 10]] }), []);
  const note = { atMs: 6000, details: 'bufferStalledError', fatal: false };

  it("are the player's only next to a halt judged the player's", () => {
    expect(isPlayersHaltNote(note, [players])).toBe(true);
    expect(isPlayersHaltNote(note, [streams])).toBe(false);
    expect(isPlayersHaltNote({ ...note, atMs: 60_000 }, [players])).toBe(false);
  });

  it('never cover a hole or a fatal error', () => {
    expect(isPlayersHaltNote({ ...note, details: 'bufferSeekOverHole' }, [players])).toBe(false);
    expect(isPlayersHaltNote({ ...note, fatal: true }, [players])).toBe(false);
  });
});

describe("hls.js's seek over a hole", () => {
  const seek = (reason: string) => ({ atMs: 700, details: 'bufferSeekOverHole', fatal: false, reason });

  it('is its start-up race when made from 0, before the element reached the start position', () => {
    const startUp = seek('fragment loaded with buffer holes, seeking from 0 to 28.163334000000003');
    expect(isStartUpSeek(startUp)).toBe(true);
    expect(isPlayersNote(startUp, [])).toBe(true);
  });

  it('is a hole in the stream when made from where playback is, or when fatal', () => {
    expect(isStartUpSeek(seek('fragment loaded with buffer holes, seeking from 26 to 28.16'))).toBe(false);
    expect(isStartUpSeek(seek('fragment loaded with buffer holes, seeking from 0.5 to 28.16'))).toBe(false);
    expect(isPlayersNote(seek('fragment loaded with buffer holes, seeking from 30.2 to 32.1'), [])).toBe(
      false,
    );
    const fatal = {
      ...seek('Playhead still not moving after seeking over buffer hole from 0 to 28.16'),
      fatal: true,
    };
    expect(isStartUpSeek(fatal)).toBe(false);
  });
});

describe('halts a seam between two encodes causes', () => {
  // The CI run's halt: the TS VOD's audio ended 10.7 ms before its video boundary at 74 s, the CMAF
  // source's audio started 16 ms after it; hls.js jumped to 74.116 and the element waited once more there.
  const tracks = (video: Array<[number, number]>, audio: Array<[number, number]>) => ({ video, audio });
  const seamHole = judgeStall(
    stall(
      tracks(
        [[54, 80]],
        [
          [54, 73.989331],
          [74.016, 80],
        ],
      ),
      73.942306,
    ),
    [],
  );
  const atJump = judgeStall(stall(tracks([[54, 80]], [[54, 80]]), 74.116), []);

  it('are an audio hole of up to two AAC frames where a discontinuity starts, and the halt at the jump past it', () => {
    expect(seamAudioHoleHalts([seamHole, atJump], [60, 74])).toEqual([seamHole, atJump]);
  });

  it('are not the same hole away from a discontinuity', () => {
    expect(seamAudioHoleHalts([seamHole, atJump], [60, 72])).toEqual([]);
  });

  it('are not a hole wider than two AAC frames, nor a hole in the video', () => {
    const wide = judgeStall(
      stall(
        tracks(
          [[54, 80]],
          [
            [54, 73.98],
            [74.03, 80],
          ],
        ),
        73.95,
      ),
      [],
    );
    const video = judgeStall(
      stall(
        tracks(
          [
            [54, 73.989],
            [74.016, 80],
          ],
          [[54, 80]],
        ),
        73.95,
      ),
      [],
    );
    expect(wide.kind).toBe('hole');
    expect(video.kind).toBe('hole');
    expect(seamAudioHoleHalts([wide, video], [74])).toEqual([]);
  });

  it('are not a halt of the player without a seam hole before it', () => {
    expect(seamAudioHoleHalts([atJump], [74])).toEqual([]);
  });
});

describe("the seconds the player's halts held the playhead", () => {
  const halt = (atMs: number, stream: boolean): JudgedStall => ({
    atMs,
    currentTime: 0,
    kind: stream ? 'late' : 'starved',
    stream,
    detail: '',
  });
  const playing = (atMs: number) => ({ atMs, type: 'playing' });

  it("runs from each halt judged the player's to the next playing event", () => {
    const events = [playing(1000), playing(6000), playing(9500)];
    expect(playersHaltSeconds([halt(4000, false), halt(9000, false)], events, 20_000)).toBeCloseTo(2.5);
  });

  it("counts a waiting and its stalled once, and never the stream's halts", () => {
    const events = [playing(1000), playing(7000), playing(12_000)];
    const halts = [halt(4000, false), halt(4100, false), halt(10_000, true)];
    expect(playersHaltSeconds(halts, events, 20_000)).toBeCloseTo(3);
  });

  it('runs to the end of the play when playback never resumed', () => {
    expect(playersHaltSeconds([halt(15_000, false)], [playing(1000)], 20_000)).toBeCloseTo(5);
  });
});

describe('what a play’s halts hold against the stream', () => {
  const halt = (stream: boolean): JudgedStall => ({
    atMs: 4000,
    currentTime: 3.5,
    kind: stream ? 'hole' : 'starved',
    stream,
    detail: stream ? 'audio has a hole of 600 ms' : 'video waited for a fragment published in time',
  });

  it('is nothing when every halt was judged the player’s', () => {
    expect(streamHaltProblems({ stalls: 2, judgedStalls: [halt(false), halt(false)] })).toEqual([]);
  });

  it('names each halt judged the stream’s', () => {
    expect(streamHaltProblems({ stalls: 2, judgedStalls: [halt(false), halt(true)] })).toEqual([
      "the stream's: 4.0s @3.500 hole: audio has a hole of 600 ms",
    ]);
  });

  it('counts halts the page saw without the buffers to judge them by', () => {
    expect(streamHaltProblems({ stalls: 3, judgedStalls: [halt(false)] })).toEqual([
      '2 of 3 halts not judged: no buffers recorded',
    ]);
  });
});
