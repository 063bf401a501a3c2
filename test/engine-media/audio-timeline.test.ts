import { describe, expect, it } from 'vitest';
import type { OutputLadder } from '../../engine-container/src/ladder/output-ladder';
import { draftOnLadder, vodOnLadder } from '../../engine-container/src/playout/audio-timeline';
import { loopDraft, vodDraft } from '../../engine-container/src/playout/drafts';
import { withAudioPadding } from '../../engine-container/src/vod/audio-lead';
import { buildParsedVod, referenceTrack } from '../../engine-container/src/vod/parsed-vod';

const segments = (uri: string) =>
  [0, 1, 2].map((i) => ({ uri: `${uri}/seg${i}.ts`, durationMs: 2000, discontinuity: false }));

/** A TS VOD of 3 × 2 s whose audio starts 21 ms before its video and ends 16 ms after it. */
const padded = withAudioPadding(
  buildParsedVod(
    'https://o.test/v/master.m3u8',
    [
      {
        variant: { uri: 'https://o.test/v/low.m3u8', bandwidth: 300_000 },
        playlist: { segments: segments('low') },
      },
    ],
    [],
  ),
  { leadMs: 21, tailMs: 16 },
);

const muxed: OutputLadder = { variants: [{ bandwidth: 300_000 }], audio: [], subtitles: [] };
const demuxed: OutputLadder = {
  variants: [{ bandwidth: 300_000, audioGroup: 'aac' }],
  audio: [{ groupId: 'aac', language: 'en', name: 'English', default: 1 }],
  subtitles: [],
};
const durations = (ladder: OutputLadder) =>
  referenceTrack(vodOnLadder(padded, ladder)).segments.map((s) => s.durationMs);
const plan = { kind: 'vod' as const, id: 'a', title: 'A', uri: padded.uri };

describe('a TS VOD’s timeline on a channel (hls.js plays a demuxed channel’s main timeline by its video)', () => {
  it('keeps the audio’s lead and overhang on a channel whose audio is in its variants', () => {
    expect(durations(muxed)).toEqual([2021, 2000, 2016]);
  });

  it('keeps only the lead on a channel whose audio comes from its audio renditions', () => {
    expect(durations(demuxed)).toEqual([2021, 2000, 2000]);
    expect(vodOnLadder(padded, demuxed)).toBe(vodOnLadder(padded, demuxed));
  });

  it('ends an item planned to the VOD’s end where the video ends, on a demuxed channel only', () => {
    const draft = vodDraft(referenceTrack(padded), plan);
    expect(draft.durationMs).toBe(6037);
    expect(draftOnLadder(draft, padded, demuxed).durationMs).toBe(6021);
    expect(draftOnLadder(draft, padded, muxed)).toBe(draft);
  });

  it('ends a loop (the slate) after the segments planned, each repetition as long as on the channel', () => {
    const draft = loopDraft(referenceTrack(padded), plan, { durationMs: 13_000 });
    expect(draft.durationMs).toBe(14_095); // 2 × 6037 + 2021: the first segment to start after 13 s
    expect(draftOnLadder(draft, padded, demuxed).durationMs).toBe(14_063); // 2 × 6021 + 2021
    expect(
      draftOnLadder(loopDraft(referenceTrack(padded), plan, { repetitions: 3 }), padded, demuxed).durationMs,
    ).toBe(18_063);
    expect(draftOnLadder(draft, padded, muxed)).toBe(draft);
  });

  it('leaves an item cut before the VOD’s end as long as planned', () => {
    const draft = vodDraft(referenceTrack(padded), { ...plan, desiredDurationMs: 4021 });
    expect(draft.durationMs).toBe(4021);
    expect(draftOnLadder(draft, padded, demuxed)).toBe(draft);
  });
});
