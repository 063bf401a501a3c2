/**
 * Fargate accepts only certain CPU/memory pairs; an invalid pair would fail the deploy late (at the
 * task definition, after the images are built and pushed). Checked at synth instead, against the one
 * table (core/fargate/sizes.ts) the AutoABR API checks worker sizes against too.
 */
import { fargateSizeProblem } from '../core/fargate/sizes';

export interface FargateSize {
  /** CPU units (1024 = 1 vCPU). */
  cpu: number;
  memoryLimitMiB: number;
}

/** The pair, when Fargate accepts it; otherwise an Error saying what it accepts. */
export function fargateSize(cpu: number, memoryLimitMiB: number): FargateSize {
  const problem = fargateSizeProblem(cpu, memoryLimitMiB);
  if (problem) throw new Error(problem.message);
  return { cpu, memoryLimitMiB };
}
