import { describe, expect, it } from 'vitest';
import { liveLead } from '../../engine-container/src/live/live-lead';

const lead = (sourceWindowMs: number, channelTargetDurationS: number) =>
  liveLead({
    sourceWindowMs,
    sourceTargetDurationS: 2,
    channelTargetDurationS,
    marginMs: 500,
    maxLeadMs: 10_000,
  });

describe('how far the log leads the clock while LIVE', () => {
  it("leaves a player at its default position a source target duration inside ffmpeg's usual 12 s window", () => {
    expect(lead(12_000, 2)).toEqual({ leadMs: 4000, fits: true });
  });

  it('leads by 5 source target durations when the source keeps a long window', () => {
    expect(lead(3_600_000, 2)).toEqual({ leadMs: 10_000, fits: true });
  });

  it('never leads by less than a segment and a half plus the cut margin, and says when the window is too short', () => {
    expect(lead(12_000, 10)).toEqual({ leadMs: 3500, fits: false });
  });
});
