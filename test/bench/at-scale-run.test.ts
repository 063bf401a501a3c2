/** Which run of `bench:engine` the 10,000-channel targets (idle, memory, start-up, real time) judge. */
import { describe, expect, it } from 'vitest';
import { atScaleRun } from '../../scripts/bench/report';

const runs = (...channels: number[]) => channels.map((n) => ({ channels: n }));

describe("the run the benchmark's 10,000-channel targets judge", () => {
  it('is the 10,000-channel run, though 100,000 channels were measured in the same run', () => {
    expect(atScaleRun(runs(1, 1000, 10_000, 100_000))?.channels).toBe(10_000);
  });

  it('is the largest run below 100,000 channels when 10,000 were not measured', () => {
    expect(atScaleRun(runs(1, 1000, 100_000))?.channels).toBe(1000);
  });

  it('is the largest run when every run has 100,000 channels or more', () => {
    expect(atScaleRun(runs(100_000, 200_000))?.channels).toBe(200_000);
  });

  it('is none when nothing was measured', () => {
    expect(atScaleRun([])).toBeUndefined();
  });
});
