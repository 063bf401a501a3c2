import { describe, expect, it } from 'vitest';
import { listeningInodes } from '../../scripts/soak/server-memory';
import {
  formatMinute,
  isClean,
  judgeMinuteStalls,
  type PageTake,
  summarizeMinute,
  timelineOffsetMs,
  totals,
} from '../../scripts/soak/summary';

const NOW = 10_000_000;
const take = (over: Partial<PageTake> = {}): PageTake => ({
  started: true,
  playing: true,
  errors: [],
  stalls: [],
  latencies: [6, 6.5, 7],
  behindLive: [8, 8.5],
  bufferAhead: [5, 4.2, 6],
  currentTime: 100,
  wallMs: NOW,
  droppedFrames: 10,
  totalFrames: 3000,
  frags: [],
  ...over,
});
const dryStall = (wallMs: number) => ({
  atMs: 1,
  wallMs,
  currentTime: 50,
  tracks: { video: [[0, 50]] as Array<[number, number]> },
});

describe("a soak minute's summary", () => {
  it('counts errors by kind, fatal ones apart, and frames dropped since the minute before', () => {
    const errors = [
      { atMs: 1, type: 'mediaError', details: 'bufferSeekOverHole', fatal: false },
      { atMs: 2, type: 'mediaError', details: 'bufferSeekOverHole', fatal: false },
      { atMs: 3, type: 'networkError', details: 'fragLoadError', fatal: true },
    ];
    const s = summarizeMinute({
      minute: 2,
      take: take({ errors, droppedFrames: 14, totalFrames: 4500, currentTime: 159.5, wallMs: NOW + 60_500 }),
      previous: take(),
      stalls: [],
      rules: {},
    });
    expect(s.errorsByKind).toEqual({
      'mediaError/bufferSeekOverHole': 2,
      'FATAL networkError/fragLoadError': 1,
    });
    expect(s.droppedFrames).toBe(4);
    expect(s.frames).toBe(1500);
    expect(s).toMatchObject({ playedS: 59.5, wallS: 60.5 });
    expect(s.latencyS).toEqual({ min: 6, mean: 6.5, max: 7 });
    expect(s.minBufferAheadS).toBe(4.2);
  });

  it('prints one line with every figure, and the halts under it', () => {
    const stalls = judgeMinuteStalls([dryStall(NOW - 30_000)], [], NOW, false).stalls;
    const line = formatMinute(
      summarizeMinute({
        minute: 3,
        take: take(),
        stalls,
        rules: { 'pdt-inconsistent': 2 },
        rssBytes: 150 * 1024 * 1024,
      }),
    );
    expect(line).toContain('minute   3 | playing | errors 0 | stalls 1 (stream 1)');
    expect(line).toContain(
      'played - | latency 6.5 s (6.0-7.0) | behind live 8.3 s (PDT) | buffer ≥ 4.2 s | timeline - | rules 2 (pdt-inconsistent 2) | server 150 MB',
    );
    expect(line.split('\n')[1]).toContain('late: video ran dry');
  });

  it('leaves a recent halt with nothing buffered after it for the next minute, and judges it on the last', () => {
    expect(judgeMinuteStalls([dryStall(NOW - 5000)], [], NOW, false)).toMatchObject({
      stalls: [],
      pending: [{}],
    });
    expect(judgeMinuteStalls([dryStall(NOW - 5000)], [], NOW, true).stalls).toHaveLength(1);
  });

  it("judges a hole where hls.js abandoned a load of its own the player's, any other hole the stream's", () => {
    const holed = {
      ...dryStall(NOW - 30_000),
      tracks: {
        video: [
          [0, 50],
          [52, 60],
        ] as Array<[number, number]>,
      },
    };
    const aborted = (start: number) => ({
      atMs: 1,
      type: 'networkError',
      details: 'aborted',
      fatal: false,
      frag: { type: 'main', start, duration: 2 },
    });
    const judge = (errors: PageTake['errors']) => judgeMinuteStalls([holed], [], NOW, false, errors).stalls;
    expect(judge([aborted(50)])).toMatchObject([{ kind: 'hole', stream: false }]);
    expect(judge([aborted(56)])).toMatchObject([{ kind: 'hole', stream: true }]);
    expect(judge([{ ...aborted(50), details: 'fragLoadError' }])).toMatchObject([{ stream: true }]);
  });
});

describe("a soak's measure of the stream's own drift", () => {
  /** A main fragment buffered at wallMs, placed by hls.js at start s, with the PDT of a 2 s grid. */
  const frag = (i: number, start: number, wallMs = NOW + i) => ({
    wallMs,
    type: 'main',
    start,
    duration: 2,
    pdtMs: 1_800_000_000_000 + i * 2000,
  });

  it('is the median of where hls.js put the main fragments less where their PDTs put them', () => {
    const frags = [frag(0, 100), frag(1, 102.011), frag(2, 104.011), { ...frag(3, 0), type: 'audio' }];
    expect(timelineOffsetMs(frags, 0)! - timelineOffsetMs([frag(0, 100)], 0)!).toBeCloseTo(11, 6);
  });

  it('reads only the fragments buffered since the last take, and says how far it moved since the first minute', () => {
    const origin = timelineOffsetMs([frag(0, 100)], 0)!;
    const frags = [frag(0, 100, NOW - 60_000), frag(30, 159.96), frag(31, 161.96), frag(32, 163.96)];
    const minute = summarizeMinute({
      minute: 2,
      take: take({ frags }),
      previous: take({ wallMs: NOW - 30_000 }),
      stalls: [],
      rules: {},
      timelineOriginMs: origin,
    });
    expect(minute.timelineShiftMs).toBeCloseTo(-40, 6);
    expect(formatMinute(minute)).toContain('| timeline -40 ms |');
    expect(totals([minute]).timelineShiftLastMs).toBeCloseTo(-40, 6);
  });
});

describe("a soak's totals", () => {
  const minute = (n: number, over: Partial<PageTake> = {}, rules = {}) =>
    summarizeMinute({ minute: n, take: take(over), stalls: [], rules, rssBytes: n * 1e8 });

  it('add the minutes up and give the latency and memory of the first and last minutes', () => {
    const t = totals([minute(1, { latencies: [6] }), minute(2, { latencies: [7] })]);
    expect(t).toMatchObject({
      minutes: 2,
      latencyFirstS: 6,
      latencyLastS: 7,
      rssFirstBytes: 1e8,
      rssLastBytes: 2e8,
    });
    expect(isClean(t)).toBe(true);
  });

  it('are not clean with any error, stream halt, broken rule or minute not playing', () => {
    const error = { atMs: 1, type: 'mediaError', details: 'bufferStalledError', fatal: false };
    expect(isClean(totals([minute(1, { errors: [error] })]))).toBe(false);
    expect(isClean(totals([minute(1, {}, { 'segment-changed': 1 })]))).toBe(false);
    expect(isClean(totals([minute(1, { playing: false })]))).toBe(false);
  });
});

describe("finding a loopback server's process", () => {
  it('reads the inodes of sockets listening on a port from /proc/net/tcp', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000',
      '   1: 0100007F:1F40 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000',
      '   2: 0100007F:1F41 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4444 1 0000',
    ].join('\n');
    expect(listeningInodes(table, 8000)).toEqual(['4242']);
  });
});
