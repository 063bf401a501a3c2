/**
 * What the AutoABR API takes and answers, for its OpenAPI document (core/openapi.ts): the path and
 * query parameters as the handlers check them (params.ts), and the shapes of the answers.
 */
import { z } from 'zod';
import type { ApiInfo } from '../../../core/openapi';
import { JOB_ID } from '../domain/job';
import { MODEL_NAMES } from '../domain/models';
import { JOB_NAME } from './job-request';

export const AUTOABR_API_INFO: ApiInfo = {
  title: 'onair AutoABR',
  version: '1',
  description: 'VMAF measurement jobs, their results, charts and ladders: docs/autoabr-api.md',
};

export const jobIdSchema = z.string().regex(JOB_ID).describe('a job id (UUID)');
export const outputSchema = z.string().regex(JOB_NAME).describe('a job name');
export const modelSchema = z.enum(MODEL_NAMES);

export const workerInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  phase: z.string().describe('QUEUED, RUNNING, SUCCEEDED, FAILED...'),
  runningTimeMs: z.number(),
  progress: z.object({ done: z.number(), total: z.number(), percent: z.number() }),
  attempts: z.number().int(),
  createdAt: z.number(),
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
  error: z.string().optional(),
  modelErrors: z.record(z.string()).optional(),
  result: z.string().describe('where the results will be'),
});

const ratePoint = z.object({ width: z.number(), height: z.number(), bitrate: z.number(), score: z.number() });

export const ladderSchema = z.object({
  id: z.string().nullable(),
  status: z.string(),
  output: z.string(),
  options: z.object({ targetScore: z.number(), minStep: z.number() }),
  models: z.record(
    z.object({ points: z.array(ratePoint), hull: z.array(ratePoint), ladder: z.array(ratePoint) }),
  ),
});

export const resultsSchema = z.object({
  id: z.string().nullable(),
  status: z.string(),
  result: z.record(z.record(z.record(z.number()))).describe('{ <output>: { <model>: { <file>: score } } }'),
});

export const resultQuery = {
  format: z.enum(['json', 'csv', 'tsv', 'svg']).describe('svg: one model only'),
  limit: z.string(),
  cursor: z.string(),
};

export const ladderQuery = {
  target: z.string().describe('VMAF worth paying for, 0..100 (default 95)'),
  step: z.string().describe('least VMAF between rungs (default 6)'),
};
