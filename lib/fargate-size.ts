/**
 * Fargate accepts only certain CPU/memory pairs; an invalid pair would fail the deploy late (at the
 * task definition, after the images are built and pushed). Checked at synth instead.
 * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/fargate-tasks-services.html#fargate-tasks-size
 */

export interface FargateSize {
  /** CPU units (1024 = 1 vCPU). */
  cpu: number;
  memoryLimitMiB: number;
}

const range = (min: number, max: number, step: number): number[] =>
  Array.from({ length: (max - min) / step + 1 }, (_, i) => min + i * step);

/** Per CPU value, the memory sizes (MiB) Fargate allows with it (Linux, platform 1.4.0). */
const MEMORY_FOR_CPU = new Map<number, readonly number[]>([
  [256, [512, 1024, 2048]],
  [512, range(1024, 4096, 1024)],
  [1024, range(2048, 8192, 1024)],
  [2048, range(4096, 16_384, 1024)],
  [4096, range(8192, 30_720, 1024)],
  [8192, range(16_384, 61_440, 4096)],
  [16_384, range(32_768, 122_880, 8192)],
]);

/** The pair, when Fargate accepts it; otherwise an Error saying what it accepts. */
export function fargateSize(cpu: number, memoryLimitMiB: number): FargateSize {
  const allowed = MEMORY_FOR_CPU.get(cpu);
  if (!allowed)
    throw new Error(
      `Fargate CPU ${cpu} is not one of ${[...MEMORY_FOR_CPU.keys()].join(', ')} (1024 = 1 vCPU)`,
    );
  if (!allowed.includes(memoryLimitMiB))
    throw new Error(
      `Fargate CPU ${cpu} takes memory ${allowed[0]}-${allowed.at(-1)} MiB (${allowed.join(', ')}); ` +
        `${memoryLimitMiB} is not one of them`,
    );
  return { cpu, memoryLimitMiB };
}
