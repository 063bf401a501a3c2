/**
 * The two settings documents a job names by URL (or leaves to the built-in defaults): the encoding
 * settings (how each rung is encoded) and the pipeline (where results go and how hard to work).
 * Both are strict: a misspelt field is an error, not a silently ignored option.
 */
import { z } from 'zod';
import { FARGATE_CPUS, fargateSizeProblem, leastFargateMemory } from '../../../core/fargate/sizes';

const X26X_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const;

export const encodingSettingsSchema = z
  .object({
    /** h264 = libx264, hevc = libx265. */
    codec: z.enum(['h264', 'hevc']).default('h264'),
    preset: z.enum(X26X_PRESETS).default('medium'),
    rateControl: z
      .object({
        /**
         * CBR: -b:v = -minrate = -maxrate = bitrate. VBR: average bitrate, peaks up to maxrateFactor x.
         * CRF: constant quality `crf`, capped at the rung's bitrate (capped CRF, as ladders are encoded).
         */
        mode: z.enum(['CBR', 'VBR', 'CRF']).default('VBR'),
        crf: z.number().min(0).max(51).default(23),
        maxrateFactor: z.number().min(1).max(4).default(1.5),
        /** VBV buffer size as a multiple of the bitrate. */
        bufsizeFactor: z.number().min(0.5).max(10).default(2),
      })
      .strict()
      .default({}),
    gop: z
      .object({
        /** GOP length in seconds (forced key frames at multiples of it); ignored when `frames` is set. */
        seconds: z.number().positive().max(20).default(2),
        frames: z.number().int().positive().max(1000).optional(),
        /** Allow extra key frames at scene cuts (off: fixed GOPs align across rungs). */
        sceneCut: z.boolean().default(false),
      })
      .strict()
      .default({}),
    pixelFormat: z.enum(['yuv420p', 'yuv420p10le']).default('yuv420p'),
    container: z.enum(['mp4', 'mkv', 'ts']).default('mp4'),
  })
  .strict();

export type EncodingSettings = z.infer<typeof encodingSettingsSchema>;

/**
 * The worker task's size on Fargate: a pair Fargate accepts (core/fargate/sizes.ts), else ECS would
 * refuse every attempt of the job. Memory left out is the least Fargate takes with the CPU.
 */
const taskSizeSchema = z
  .object({
    cpu: z
      .number()
      .int()
      .refine((v) => FARGATE_CPUS.includes(v), `must be one of ${FARGATE_CPUS.join(', ')}`)
      .default(4096),
    memoryMiB: z.number().int().min(512).max(122_880).optional(),
  })
  .strict()
  .transform((size, ctx) => {
    const memoryMiB = size.memoryMiB ?? leastFargateMemory(size.cpu)!;
    const problem = fargateSizeProblem(size.cpu, memoryMiB);
    if (problem?.field === 'memory')
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['memoryMiB'], message: problem.message });
    return { cpu: size.cpu, memoryMiB };
  });

export const pipelineSchema = z
  .object({
    /** Bucket for the result files; omitted = the service's bucket (BUCKET_AUTOABR). */
    resultBucket: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
    /** Key prefix; files land at `<prefix>/<job.name>/<model>/<W>x<H>_<bitrate>_vmaf.json`. */
    resultPrefix: z
      .string()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'must be key segments separated by /')
      .refine(
        (p) => !p.split('/').some((seg) => seg === '.' || seg === '..'),
        'must not contain . or .. segments',
      )
      .default('results'),
    /** Jobs of this pipeline start only while fewer than this many workers run. */
    maxParallelWorkers: z.number().int().min(1).max(100).default(2),
    /** ffmpeg -threads and libvmaf n_threads; 0 = every core of the worker's task. */
    ffmpegThreads: z.number().int().min(0).max(64).default(0),
    /** libvmaf n_subsample: score every n-th frame (1 = all). */
    nSubsample: z.number().int().min(1).max(1000).default(1),
    /** The worker task's size on Fargate (CPU units, MiB): ignored by local child-process workers. */
    taskSize: taskSizeSchema.default({}),
  })
  .strict();

export type PipelineSettings = z.infer<typeof pipelineSchema>;

/** What a job gets when it names no encoding settings document. */
export const DEFAULT_ENCODING_SETTINGS: EncodingSettings = encodingSettingsSchema.parse({});
/** What a job gets when it names no pipeline document. */
export const DEFAULT_PIPELINE: PipelineSettings = pipelineSchema.parse({});

/** A settings document's issue as one line that names the field (documents are not request bodies). */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid document';
  const path = issue.path.join('.') || '(document)';
  return `${path}: ${issue.message}`;
}
