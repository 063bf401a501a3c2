import { describe, expect, it } from 'vitest';
import { tsAudioEnd } from '../../engine-container/src/hls/ts-audio-end';
import { audioLeadMs, tsStartTimes } from '../../engine-container/src/hls/ts-start-times';
import { adtsPesPacket, continuation, join, pesPacket } from './support/ts-packets';

describe('the first timestamps of a TS segment', () => {
  it('reads the first video PTS and DTS and the first audio PTS from their PES headers', () => {
    const bytes = join(pesPacket(256, 0xe0, 127_920), continuation(256), pesPacket(257, 0xc0, 126_000));
    expect(tsStartTimes(bytes)).toEqual({ videoPts: 127_920, videoDts: 127_920, audioPts: 126_000 });
  });

  it('keeps each stream’s first timestamp, not a later one', () => {
    const bytes = join(
      pesPacket(257, 0xc0, 126_000),
      pesPacket(257, 0xc0, 127_920),
      pesPacket(256, 0xe0, 127_920),
    );
    expect(tsStartTimes(bytes).audioPts).toBe(126_000);
  });

  it('reads timestamps above 2^32 (33 bits)', () => {
    const bytes = join(pesPacket(256, 0xe0, 2 ** 32 + 5, 2 ** 32 + 1), pesPacket(257, 0xc0, 2 ** 32 + 3));
    expect(tsStartTimes(bytes)).toEqual({
      videoPts: 2 ** 32 + 5,
      videoDts: 2 ** 32 + 1,
      audioPts: 2 ** 32 + 3,
    });
  });

  it('stops at bytes that are not TS', () => {
    expect(tsStartTimes(new TextEncoder().encode('#EXTM3U\n'.repeat(50)))).toEqual({});
  });
});

describe('the audio lead of a TS segment', () => {
  it('is how much later than the audio the video starts: 21 ms for AAC priming at 48 kHz', () => {
    expect(audioLeadMs({ videoPts: 127_920, videoDts: 127_920, audioPts: 126_000 })).toBe(21);
  });

  it('counts from the first video DTS when that is earlier than the audio (B-frames), as hls.js maps it', () => {
    expect(audioLeadMs({ videoPts: 133_200, videoDts: 129_600, audioPts: 131_280 })).toBe(40);
  });

  it('is 0 when the video starts first, a stream is missing, or the lead is more than priming', () => {
    expect(audioLeadMs({ videoPts: 126_000, videoDts: 126_000, audioPts: 127_920 })).toBe(0);
    expect(audioLeadMs({ videoPts: 127_920, videoDts: 127_920 })).toBe(0);
    expect(audioLeadMs({ audioPts: 126_000 })).toBe(0);
    expect(audioLeadMs({ videoPts: 180_000, videoDts: 180_000, audioPts: 126_000 })).toBe(0);
  });
});

describe('the audio end of a TS segment', () => {
  it('is its last audio PES’s PTS plus the ADTS frames it carries', () => {
    const bytes = join(
      adtsPesPacket(257, 660_000, 3),
      pesPacket(256, 0xe0, 664_320),
      adtsPesPacket(257, 665_760, 2),
    );
    expect(tsAudioEnd(bytes)).toBe(665_760 + 2 * 1920);
  });

  it('is unknown without ADTS audio', () => {
    expect(tsAudioEnd(join(pesPacket(256, 0xe0, 664_320)))).toBeUndefined();
    expect(tsAudioEnd(join(pesPacket(257, 0xc0, 664_320)))).toBeUndefined();
  });
});
