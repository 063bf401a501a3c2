/**
 * The CPU/memory pairs Fargate accepts for a task (Linux, platform 1.4.0): one table for the stack's own
 * tasks (lib/fargate-size.ts, checked at synth) and for the AutoABR worker sizes a pipeline document asks
 * for (checked at the API). A pair outside it is refused by ECS only when the task is started.
 * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/fargate-tasks-services.html#fargate-tasks-size
 */

const range = (min: number, max: number, step: number): number[] =>
  Array.from({ length: (max - min) / step + 1 }, (_, i) => min + i * step);

/** Per CPU value (units, 1024 = 1 vCPU), the memory sizes (MiB) Fargate allows with it. */
const MEMORY_FOR_CPU = new Map<number, readonly number[]>([
  [256, [512, 1024, 2048]],
  [512, range(1024, 4096, 1024)],
  [1024, range(2048, 8192, 1024)],
  [2048, range(4096, 16_384, 1024)],
  [4096, range(8192, 30_720, 1024)],
  [8192, range(16_384, 61_440, 4096)],
  [16_384, range(32_768, 122_880, 8192)],
]);

/** The CPU values Fargate offers, smallest first. */
export const FARGATE_CPUS: readonly number[] = [...MEMORY_FOR_CPU.keys()];

/** The least memory (MiB) Fargate takes with this CPU; undefined for a CPU it does not offer. */
export const leastFargateMemory = (cpu: number): number | undefined => MEMORY_FOR_CPU.get(cpu)?.[0];

export interface FargateSizeProblem {
  /** Which of the two is wrong: the CPU is not offered, or the memory does not go with the CPU. */
  field: 'cpu' | 'memory';
  message: string;
}

/** What is wrong with the pair, saying what Fargate accepts; undefined when Fargate accepts it. */
export function fargateSizeProblem(cpu: number, memoryMiB: number): FargateSizeProblem | undefined {
  const allowed = MEMORY_FOR_CPU.get(cpu);
  if (!allowed)
    return {
      field: 'cpu',
      message: `Fargate CPU ${cpu} is not one of ${FARGATE_CPUS.join(', ')} (1024 = 1 vCPU)`,
    };
  if (!allowed.includes(memoryMiB))
    return {
      field: 'memory',
      message:
        `Fargate CPU ${cpu} takes memory ${allowed[0]}-${allowed.at(-1)} MiB (${allowed.join(', ')}); ` +
        `${memoryMiB} is not one of them`,
    };
  return undefined;
}
