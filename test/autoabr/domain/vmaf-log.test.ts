import { describe, expect, it } from 'vitest';
import {
  poolScores,
  summariseVmafLog,
  VmafLogError,
  vmafScore,
} from '../../../functions/autoabr/domain/vmaf-log';

const frames = (scores: number[]) =>
  scores.map((vmaf, i) => ({ frameNum: i * 5, metrics: { adm2: 0.9, vmaf } }));

describe('libvmaf JSON logs', () => {
  it('pools like libvmaf: the harmonic mean is n / sum(1 / (s + 1)) - 1', () => {
    const pools = poolScores([80, 90, 100]);
    expect(pools.mean).toBeCloseTo(90, 10);
    expect(pools.harmonicMean).toBeCloseTo(3 / (1 / 81 + 1 / 91 + 1 / 101) - 1, 10);
    expect(pools.min).toBe(80);
    expect(pools.max).toBe(100);
  });

  it('weighs a bad frame more in the harmonic mean than in the mean', () => {
    const pools = poolScores([95, 95, 95, 20]);
    expect(pools.harmonicMean).toBeLessThan(pools.mean);
  });

  it('stays finite when a frame scores 0', () => {
    expect(Number.isFinite(poolScores([0, 50]).harmonicMean)).toBe(true);
  });

  it('computes the pools of a libvmaf 1.x log, which has none', () => {
    const log = JSON.stringify({ version: '1.3.7', params: { subsample: 5 }, frames: frames([70, 80, 90]) });
    const summary = summariseVmafLog(log);
    expect(summary.pooledBy).toBe('onair');
    expect(summary.version).toBe('1.3.7');
    expect(summary.frames).toBe(3);
    expect(summary.harmonicMean).toBeCloseTo(poolScores([70, 80, 90]).harmonicMean, 10);
  });

  it('takes the pools of a libvmaf 2.x log as libvmaf reported them', () => {
    const log = JSON.stringify({
      version: '2.3.1',
      frames: frames([70, 80, 90]),
      pooled_metrics: { vmaf: { min: 70, max: 90, mean: 80, harmonic_mean: 79.1 } },
      aggregate_metrics: {},
    });
    const summary = summariseVmafLog(log);
    expect(summary.pooledBy).toBe('libvmaf');
    expect(vmafScore(log)).toBe(79.1);
  });

  it('refuses text that is not a VMAF log', () => {
    expect(() => summariseVmafLog('<xml/>')).toThrow(VmafLogError);
    expect(() => summariseVmafLog('{"frames": []}')).toThrow(VmafLogError);
    expect(() => summariseVmafLog('{"hello": 1}')).toThrow(VmafLogError);
  });
});
