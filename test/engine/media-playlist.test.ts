import { describe, expect, it } from 'vitest';
import { computeWindow } from '../../engine-container/src/playout/window';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import { crc32Mpeg2, scte35SpliceInsert } from '../../engine-container/src/render/scte35';
import { gapUri, syntheticGapVod } from '../../engine-container/src/vod/synthetic-gap';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist } from '../support/live-rules';
import { ladderOf, makeVod, TestLog } from './helpers/log';

const render = (log: TestLog, nowMs: number, windowMs = 60_000) =>
  renderMediaPlaylist(computeWindow(log.items, log.resolve, 'v0', nowMs, windowMs));
const vod = (uri: string, n: number, media = {}) =>
  makeVod(uri, [{ bandwidth: 1, segmentsMs: Array(n).fill(2000), media }]);

describe('rendering a live media playlist', () => {
  it('writes the live header, a date on every segment and a discontinuity at every item boundary', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod('https://o.test/a/m.m3u8', 3));
    log.play(vod('https://o.test/b/m.m3u8', 3));
    const text = render(log, log.t0 + 12_000);
    expect(
      text.startsWith(
        '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n',
      ),
    ).toBe(true);
    expect(text.match(/#EXT-X-PROGRAM-DATE-TIME/g)).toHaveLength(6);
    expect(text.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1);
    expect(checkPlaylist(parseMediaPlaylist(text))).toEqual([]);
    expect(text).toContain(
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(log.t0 + 6000).toISOString()}\n#EXTINF:2.000,\nhttps://o.test/b/v0-0.ts`,
    );
  });

  it('repeats EXT-X-KEY after a discontinuity and on a change, and clears it with METHOD=NONE', () => {
    const key = '#EXT-X-KEY:METHOD=AES-128,URI="k1.bin"';
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const encrypted = vod('https://o.test/e/m.m3u8', 2, { before: { 0: [key] } });
    log.play(encrypted);
    log.play(encrypted);
    log.play(vod('https://o.test/clear/m.m3u8', 1));
    const keys = render(log, log.t0 + 10_000)
      .split('\n')
      .filter((l) => l.startsWith('#EXT-X-KEY'));
    expect(keys).toEqual([
      '#EXT-X-KEY:METHOD=AES-128,URI="https://o.test/e/k1.bin"',
      '#EXT-X-KEY:METHOD=AES-128,URI="https://o.test/e/k1.bin"',
      '#EXT-X-KEY:METHOD=NONE',
    ]);
  });

  it('writes EXT-X-MAP for fMP4 on the first segment and after every discontinuity', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const fmp4 = vod('https://o.test/f/m.m3u8', 2, {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
    });
    log.play(fmp4);
    log.play(fmp4);
    const text = render(log, log.t0 + 8000);
    expect(text.match(/#EXT-X-MAP:URI="https:\/\/o.test\/f\/init.mp4"/g)).toHaveLength(2);
    expect(parseMediaPlaylist(text).segments.map((s) => s.map?.uri)).toEqual(
      Array(4).fill('https://o.test/f/init.mp4'),
    );
  });

  it("gives a TS item in a window that lists fMP4 a map of its first segment's first two packets", () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const fmp4 = vod('https://o.test/f/m.m3u8', 2, {
      ext: 'm4s',
      before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] },
    });
    log.play(fmp4);
    log.play(vod('https://o.test/t/m.m3u8', 3));
    log.play(fmp4);
    const segments = parseMediaPlaylist(render(log, log.t0 + 14_000)).segments;
    const ts = { uri: 'https://o.test/t/v0-0.ts', byteRange: '376@0' };
    const fmp4Map = { uri: 'https://o.test/f/init.mp4' };
    expect(segments.map((s) => s.map)).toEqual([fmp4Map, fmp4Map, ts, ts, ts, fmp4Map, fmp4Map]);
    expect(checkPlaylist(parseMediaPlaylist(render(log, log.t0 + 14_000)))).toEqual([]);
  });

  it("keeps the TS map pointing at the item's first segment once that segment has left the window", () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod('https://o.test/t/m.m3u8', 4));
    log.play(vod('https://o.test/f/m.m3u8', 1, { ext: 'm4s', before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] } }));
    const text = render(log, log.t0 + 10_000, 6000);
    expect(text).not.toContain('\nhttps://o.test/t/v0-0.ts');
    expect(parseMediaPlaylist(text).segments.map((s) => s.map?.uri)).toEqual([
      'https://o.test/t/v0-0.ts',
      'https://o.test/t/v0-0.ts',
      'https://o.test/f/init.mp4',
    ]);
  });

  it('writes no map for TS when the window lists no fMP4', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod('https://o.test/a/m.m3u8', 2));
    log.play(vod('https://o.test/b/m.m3u8', 2));
    expect(render(log, log.t0 + 8000)).not.toContain('#EXT-X-MAP');
  });

  it('writes byte ranges with explicit offsets', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(
      vod('https://o.test/r/m.m3u8', 2, {
        uris: { 0: 'all.ts', 1: 'all.ts' },
        before: { 0: ['#EXT-X-BYTERANGE:100@0'], 1: ['#EXT-X-BYTERANGE:50'] },
      }),
    );
    const text = render(log, log.t0 + 4000);
    expect(text).toContain('#EXT-X-BYTERANGE:100@0\nhttps://o.test/r/all.ts');
    expect(text).toContain('#EXT-X-BYTERANGE:50@100\nhttps://o.test/r/all.ts');
  });

  it('marks a preroll with CUE-OUT, CUE-OUT-CONT, CUE-IN and SCTE-35 date ranges', () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    const ad = vod('https://o.test/ad/m.m3u8', 3);
    log.preroll(ad, 6000);
    log.play(vod('https://o.test/show/m.m3u8', 2));
    const text = render(log, log.t0 + 10_000);
    const start = new Date(log.t0).toISOString();
    expect(text).toMatch(
      new RegExp(
        `#EXT-X-DATERANGE:ID="preroll-0-${log.t0}",START-DATE="${start}",PLANNED-DURATION=6.000,SCTE35-OUT=0x[0-9A-F]+\n#EXT-X-CUE-OUT:DURATION=6.000\n#EXTINF:2.000,\nhttps://o.test/ad/v0-0.ts`,
      ),
    );
    expect(text).toContain(
      '#EXT-X-CUE-OUT-CONT:ElapsedTime=2.000,Duration=6.000\n#EXTINF:2.000,\nhttps://o.test/ad/v0-1.ts',
    );
    expect(text).toContain('#EXT-X-CUE-OUT-CONT:ElapsedTime=4.000,Duration=6.000');
    expect(text).toMatch(
      new RegExp(
        `#EXT-X-CUE-IN\n#EXT-X-DATERANGE:ID="preroll-0-${log.t0}",START-DATE="${start}",DURATION=6.000,SCTE35-IN=0x[0-9A-F]+\n#EXTINF:2.000,\nhttps://o.test/show/v0-0.ts`,
      ),
    );
  });

  it("turns timedMetadata into an EXT-X-DATERANGE on the item's first segment", () => {
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(vod('https://o.test/a/m.m3u8', 2));
    log.play(vod('https://o.test/b/m.m3u8', 2), {
      timedMetadata: { id: 'meta-1', 'x-title': 'Show "B"', rating: 7 },
    });
    const text = render(log, log.t0 + 8000);
    const start = new Date(log.t0 + 4000).toISOString();
    expect(text).toContain(
      `#EXT-X-DATERANGE:ID="meta-1",START-DATE="${start}",DURATION=4,X-RATING=7,X-TITLE="Show B"\n#EXTINF:2.000,\nhttps://o.test/b/v0-0.ts`,
    );
    expect(text.match(/#EXT-X-DATERANGE/g)).toHaveLength(1);
  });

  it('writes the synthetic gap as EXT-X-GAP segments that still advance the clock', () => {
    const log = TestLog.withLadder(ladderOf([1]), 3);
    log.loop(syntheticGapVod(gapUri(3000)), { durationMs: 9000 }, 'gap');
    const parsed = parseMediaPlaylist(render(log, log.t0 + 9000));
    expect(parsed.segments.map((s) => s.duration)).toEqual([3, 3, 3]);
    expect(render(log, log.t0 + 9000).match(/#EXT-X-GAP\n/g)).toHaveLength(3);
  });
});

describe('SCTE-35 splice_insert', () => {
  const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');

  it('is a splice_info_section whose CRC-32 checks', () => {
    const section = bytes(scte35SpliceInsert(7, true, 6000));
    expect(section[0]).toBe(0xfc);
    expect(((section[1]! & 0x0f) << 8) | section[2]!).toBe(section.length - 3);
    expect(crc32Mpeg2([...section])).toBe(0);
  });

  it('carries the event id, the out-of-network flag and the break duration in 90 kHz ticks', () => {
    const out = bytes(scte35SpliceInsert(7, true, 6000));
    const cmd = 14; // splice_insert starts after the 14-byte header
    expect(out[13]).toBe(0x05);
    expect(out.readUInt32BE(cmd)).toBe(7);
    expect(out[cmd + 5]! & 0x80).toBe(0x80);
    const duration = (out[cmd + 6]! & 1) * 2 ** 32 + out.readUInt32BE(cmd + 7);
    expect(duration).toBe(6000 * 90);
    const back = bytes(scte35SpliceInsert(7, false));
    expect(back[cmd + 5]! & 0x80).toBe(0);
  });
});
