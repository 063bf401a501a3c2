/** The body of POST /autoabr (README, AutoABR "API"), validated field by field. */
import { z } from 'zod';
import { parseWith } from '../../../core/validation';
import { MODEL_NAMES } from '../domain/models';
import { s3UrlProblem } from '../domain/s3-url';

/** An `s3://bucket/key` URL whose key is safe to hand on (domain/s3-url.ts); the 400 says what is wrong. */
const s3Url = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    const problem = s3UrlProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/** Job names become one S3 key segment and a download file name: letters, digits, . _ - only. */
export const JOB_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,128}$/;

const MAX_WIDTH = 7680;
const MAX_HEIGHT = 4320;

const dimension = (max: number) =>
  z
    .number()
    .int()
    .positive()
    .max(max)
    .refine((v) => v % 2 === 0, 'must be even (4:2:0 chroma needs even sizes)');

export const jobRequestSchema = z
  .object({
    encodingSettingsUrl: s3Url.optional(),
    pipelineUrl: s3Url.optional(),
    job: z
      .object({
        name: z.string().regex(JOB_NAME, 'must be 1-128 characters of A-Z a-z 0-9 . _ - (not . or ..)'),
        reference: s3Url,
        models: z
          .array(z.enum(MODEL_NAMES))
          .min(1)
          .max(MODEL_NAMES.length)
          .refine((m) => new Set(m).size === m.length, 'must not repeat a model'),
        bitrates: z
          .array(z.number().int().positive().max(1_000_000_000))
          .min(1)
          .max(64)
          .refine((b) => new Set(b).size === b.length, 'must not repeat a bitrate'),
        resolutions: z
          .array(z.object({ width: dimension(MAX_WIDTH), height: dimension(MAX_HEIGHT) }).strict())
          .min(1)
          .max(32)
          .refine(
            (r) => new Set(r.map((x) => `${x.width}x${x.height}`)).size === r.length,
            'must not repeat a resolution',
          ),
      })
      .strict(),
  })
  .strict();

export type JobRequest = z.infer<typeof jobRequestSchema>;

/** The validated request, or a 400 naming the first bad field (e.g. `job.resolutions.0.width`). */
export const parseJobRequest = (body: unknown): JobRequest => parseWith(jobRequestSchema, body);
