/**
 * libvmaf's JSON log, in both shapes it comes in:
 * - libvmaf >= 2: `frames[].metrics.vmaf` plus `pooled_metrics.vmaf.{min,max,mean,harmonic_mean}`;
 * - libvmaf 1.x: `frames[].metrics.vmaf` only (no pools), so we compute them the way libvmaf 2 does.
 * A result's score is the pooled harmonic mean: it weighs bad frames more than the arithmetic mean
 * does, which is what viewers notice.
 */
import { z } from 'zod';

const frameSchema = z.object({ frameNum: z.number().optional(), metrics: z.record(z.number()) });
const poolSchema = z.object({
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  harmonic_mean: z.number(),
});
const logSchema = z.object({
  version: z.string().optional(),
  frames: z.array(frameSchema),
  pooled_metrics: z.record(poolSchema).optional(),
});

export interface VmafPools {
  min: number;
  max: number;
  mean: number;
  harmonicMean: number;
}

export interface VmafSummary extends VmafPools {
  /** libvmaf's version as the log states it ("1.3.7", "2.3.1"...). */
  version: string | undefined;
  /** Frames scored (after n_subsample). */
  frames: number;
  /** Whether the pools came from libvmaf itself (>= 2) or were computed here (1.x). */
  pooledBy: 'libvmaf' | 'onair';
}

/**
 * libvmaf's pools over per-frame scores. The harmonic mean is libvmaf's shifted one,
 * n / sum(1 / (s + 1)) - 1, which stays finite when a frame scores 0.
 */
export function poolScores(scores: readonly number[]): VmafPools {
  if (scores.length === 0) throw new Error('no frame scores to pool');
  let sum = 0;
  let inverseSum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of scores) {
    sum += s;
    inverseSum += 1 / (s + 1);
    if (s < min) min = s;
    if (s > max) max = s;
  }
  return { min, max, mean: sum / scores.length, harmonicMean: scores.length / inverseSum - 1 };
}

export class VmafLogError extends Error {
  override name = 'VmafLogError';
}

/** Summary of one log; `metric` is the model's metric name (libvmaf names it `vmaf` unless told otherwise). */
export function summariseVmafLog(text: string, metric = 'vmaf'): VmafSummary {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new VmafLogError('VMAF log is not JSON');
  }
  const parsed = logSchema.safeParse(json);
  if (!parsed.success) throw new VmafLogError('VMAF log has no frames array of metrics');
  const log = parsed.data;
  const pooled = log.pooled_metrics?.[metric];
  if (pooled) {
    return {
      version: log.version,
      frames: log.frames.length,
      pooledBy: 'libvmaf',
      min: pooled.min,
      max: pooled.max,
      mean: pooled.mean,
      harmonicMean: pooled.harmonic_mean,
    };
  }
  const scores = log.frames.map((f) => f.metrics[metric]).filter((s): s is number => s !== undefined);
  if (scores.length === 0) throw new VmafLogError(`VMAF log has no "${metric}" frame scores`);
  return { version: log.version, frames: log.frames.length, pooledBy: 'onair', ...poolScores(scores) };
}

/** The score a result reports for a log: its pooled harmonic mean. */
export const vmafScore = (text: string): number => summariseVmafLog(text).harmonicMean;
