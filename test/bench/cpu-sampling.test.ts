/** The benchmark's per-second CPU of a process, read from /proc (scripts/bench/pin.ts). */
import { describe, expect, it } from 'vitest';
import { sampleCpuWhile } from '../../scripts/bench/pin';

describe('sampling a process’s CPU until told to stop', () => {
  it('samples one whole second per yes and stops at the first no', async () => {
    const asked: number[] = [];
    const cpu = await sampleCpuWhile(process.pid, async (sampled) => {
      asked.push(sampled);
      return sampled < 2;
    });
    expect(asked).toEqual([0, 1, 2]);
    expect(cpu.perSecondPct).toHaveLength(2);
    expect(cpu.worstSecondPct).toBe(Math.max(...cpu.perSecondPct));
  });

  it('reads nothing, not a division by zero, when told no at once', async () => {
    const cpu = await sampleCpuWhile(process.pid, () => false);
    expect(cpu).toEqual({ avgPct: 0, worstSecondPct: 0, perSecondPct: [] });
  });
});
