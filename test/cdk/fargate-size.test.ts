import { describe, expect, it } from 'vitest';
import { fargateSize } from '../../lib/fargate-size';

describe('Fargate task sizes', () => {
  it.each([
    [256, 512],
    [1024, 2048],
    [4096, 8192],
    [4096, 30_720],
    [8192, 61_440],
    [16_384, 122_880],
  ])('accepts %i CPU with %i MiB', (cpu, memory) => {
    expect(fargateSize(cpu, memory)).toEqual({ cpu, memoryLimitMiB: memory });
  });

  it.each([
    [256, 4096],
    [1024, 1024],
    [1024, 2500],
    [4096, 32_768],
    [8192, 17_408],
  ])('refuses %i CPU with %i MiB, naming the sizes it takes', (cpu, memory) => {
    expect(() => fargateSize(cpu, memory)).toThrow(/takes memory/);
  });

  it('refuses a CPU value Fargate does not offer', () => {
    expect(() => fargateSize(3000, 8192)).toThrow(/not one of 256, 512, 1024/);
  });
});
