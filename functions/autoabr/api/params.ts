/** Path and query parameters of the result routes, each checked into a 400 that names it. */
import { badRequest } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';
import { JOB_ID } from '../domain/job';
import { DEFAULT_LADDER_OPTIONS, type LadderOptions } from '../domain/ladder';
import { isModelName, MODEL_NAMES, type ModelName } from '../domain/models';
import { JOB_NAME } from './job-request';

/** `{id}`: a job id as the API issues them (a UUID); anything else never reaches the job store. */
export function jobIdParam(req: ApiRequest): string {
  const id = req.params.id ?? '';
  if (!JOB_ID.test(id)) throw badRequest('id: must be a job id (a UUID, 8-4-4-4-12 hex digits)', 'id');
  return id;
}

export function outputParam(req: ApiRequest): string {
  const output = req.params.output ?? '';
  if (!JOB_NAME.test(output)) throw badRequest('output: must be a job name (A-Z a-z 0-9 . _ -)', 'output');
  return output;
}

export function modelParam(req: ApiRequest): ModelName {
  const model = req.params.model ?? '';
  if (!isModelName(model)) throw badRequest(`model: must be one of ${MODEL_NAMES.join(', ')}`, 'model');
  return model;
}

/** `?format=`: json (the default) or one of `allowed`. */
export function formatParam<F extends string>(req: ApiRequest, allowed: readonly F[]): F | 'json' {
  const format = req.query.format;
  if (format === undefined || format === '' || format === 'json') return 'json';
  if (!(allowed as readonly string[]).includes(format)) {
    throw badRequest(`format: must be one of json, ${allowed.join(', ')}`, 'format');
  }
  return format as F;
}

function numberParam(req: ApiRequest, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw badRequest(`${name}: must be a number in [${min}, ${max}]`, name);
  return n;
}

/** `?target=` and `?step=` of a ladder, defaults filled in. */
export function ladderOptions(req: ApiRequest): LadderOptions {
  return {
    targetScore: numberParam(req, 'target', DEFAULT_LADDER_OPTIONS.targetScore, 0, 100),
    minStep: numberParam(req, 'step', DEFAULT_LADDER_OPTIONS.minStep, 0, 100),
  };
}
