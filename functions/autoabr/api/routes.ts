/**
 * The AutoABR API (seed 001) as a route table. Handlers stay thin: validate, call the domain, shape the
 * answer. Dependencies come from `apiDeps()` (built on first request) or are passed in by tests.
 */
import { badRequest, HttpError, notFound } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json, type Route } from '../../../core/http';
import { renderChart } from '../domain/chart-svg';
import {
  compareScored,
  compileJson,
  compileTable,
  type ScoredFile,
  TABLE_CONTENT_TYPE,
} from '../domain/compile-results';
import { type JobItem, newJob, workerInfo } from '../domain/job';
import {
  convexHull,
  DEFAULT_LADDER_OPTIONS,
  type LadderOptions,
  type RatePoint,
  suggestLadder,
} from '../domain/ladder';
import { isModelName, MODEL_NAMES, type ModelName } from '../domain/models';
import { DEFAULT_PIPELINE } from '../domain/settings';
import { type ApiDeps, apiDeps } from '../entry/deps';
import { type ResultLocation, readResults } from '../results/read-results';
import { JOB_NAME, parseJobRequest } from './job-request';

type Deps = () => ApiDeps;

function outputParam(req: ApiRequest): string {
  const output = req.params.output ?? '';
  if (!JOB_NAME.test(output)) throw badRequest('output: must be a job name (A-Z a-z 0-9 . _ -)', 'output');
  return output;
}

function modelParam(req: ApiRequest): ModelName {
  const model = req.params.model ?? '';
  if (!isModelName(model)) throw badRequest(`model: must be one of ${MODEL_NAMES.join(', ')}`, 'model');
  return model;
}

function formatParam<F extends string>(req: ApiRequest, allowed: readonly F[]): F | 'json' {
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

/** Where an output's results are: the latest job of that name decides (its pipeline may name a bucket). */
async function locate(
  deps: ApiDeps,
  output: string,
): Promise<{ job: JobItem | undefined; loc: ResultLocation }> {
  const job = await deps.jobs.latestByName(output);
  return {
    job,
    loc: {
      bucket: job?.pipeline.resultBucket ?? deps.bucket,
      prefix: job?.pipeline.resultPrefix ?? DEFAULT_PIPELINE.resultPrefix,
      output,
    },
  };
}

/** The output's scored files; S3 failing us is a 502, not our 500. */
async function read(deps: ApiDeps, loc: ResultLocation, model?: ModelName): Promise<ScoredFile[]> {
  try {
    return await readResults(deps.s3, loc, {
      model,
      concurrency: deps.config.resultConcurrency,
      log: deps.log,
      cache: deps.scores,
    });
  } catch (err) {
    deps.log.error('could not read results', { loc, err });
    throw new HttpError(
      502,
      'results_unavailable',
      `could not read the results of ${loc.output}: ${(err as Error).message}`,
    );
  }
}

const attachment = (name: string) => `attachment; filename="${name}"`;

async function results(deps: ApiDeps, req: ApiRequest, model?: ModelName): Promise<ApiResponse> {
  const output = outputParam(req);
  const format = formatParam(req, model ? (['csv', 'tsv', 'svg'] as const) : (['csv', 'tsv'] as const));
  const { job, loc } = await locate(deps, output);
  const files = await read(deps, loc, model);
  const base = model ? `${output}_${model}` : output;
  if (format === 'csv' || format === 'tsv') {
    return {
      status: 200,
      headers: {
        'content-type': TABLE_CONTENT_TYPE[format],
        'content-disposition': attachment(`${base}.${format}`),
      },
      rawBody: compileTable(output, files, format),
    };
  }
  if (format === 'svg' && model) {
    const points = files.filter((f) => f.model === model);
    const hull = convexHull(points);
    return {
      status: 200,
      headers: {
        'content-type': 'image/svg+xml; charset=utf-8',
        'content-disposition': `inline; filename="${base}.svg"`,
      },
      rawBody: renderChart({
        title: `${output}: ${model} rate-quality`,
        points,
        hull,
        ladder: suggestLadder(hull, ladderOptions(req)),
      }),
    };
  }
  return json(200, {
    id: job?.id ?? null,
    status: job?.status ?? 'INACTIVE',
    result: compileJson(output, files, model ? [model] : MODEL_NAMES),
  });
}

function ladderOptions(req: ApiRequest): LadderOptions {
  return {
    targetScore: numberParam(req, 'target', DEFAULT_LADDER_OPTIONS.targetScore, 0, 100),
    minStep: numberParam(req, 'step', DEFAULT_LADDER_OPTIONS.minStep, 0, 100),
  };
}

async function ladder(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
  const output = outputParam(req);
  const options = ladderOptions(req);
  const { job, loc } = await locate(deps, output);
  const files = await read(deps, loc);
  const point = ({ width, height, bitrate, score }: RatePoint): RatePoint => ({
    width,
    height,
    bitrate,
    score,
  });
  const models: Record<string, { points: RatePoint[]; hull: RatePoint[]; ladder: RatePoint[] }> = {};
  for (const model of MODEL_NAMES) {
    const points = files.filter((f) => f.model === model).sort(compareScored);
    if (points.length === 0) continue;
    const hull = convexHull(points);
    models[model] = {
      points: points.map(point),
      hull: hull.map(point),
      ladder: suggestLadder(hull, options).map(point),
    };
  }
  return json(200, { id: job?.id ?? null, status: job?.status ?? 'INACTIVE', output, options, models });
}

async function createJob(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
  const request = parseJobRequest(req.body);
  const [encoding, pipeline] = await Promise.all([
    deps.settings.encoding(request.encodingSettingsUrl),
    deps.settings.pipeline(request.pipelineUrl),
  ]);
  const now = deps.now();
  const job = newJob({
    id: deps.newId(),
    spec: request.job,
    encodingSettingsUrl: request.encodingSettingsUrl,
    pipelineUrl: request.pipelineUrl,
    encoding,
    pipeline: { ...pipeline, resultBucket: pipeline.resultBucket ?? deps.bucket },
    maxAttempts: deps.config.maxAttempts,
    now,
  });
  await deps.jobs.create(job);
  try {
    await deps.queue.send(job.id);
  } catch (err) {
    // Without its message the job would wait forever: end it now, and say so.
    await deps.jobs.failQueued(job.id, 'could not be queued', deps.now()).catch(() => undefined);
    deps.log.error('could not queue job', { jobId: job.id, err });
    throw new HttpError(503, 'queue_unavailable', 'the job queue is unavailable; try again');
  }
  return json(201, workerInfo(job, now), { location: `/autoabr/${job.id}` });
}

export function createAutoabrRoutes(deps: Deps = apiDeps): Route[] {
  return [
    { method: 'GET', path: '/', handler: async () => json(200, { status: 'healthy', service: 'autoabr' }) },
    { method: 'POST', path: '/autoabr', handler: (req) => createJob(deps(), req) },
    {
      method: 'GET',
      path: '/autoabr',
      handler: async () => {
        const d = deps();
        const now = d.now();
        const workers = (await d.jobs.listActive()).map((j) => workerInfo(j, now));
        return json(200, { workers });
      },
    },
    {
      method: 'DELETE',
      path: '/autoabr/cache',
      handler: async () => json(200, { cleared: true, generation: await deps().settings.clear() }),
    },
    {
      method: 'GET',
      path: '/autoabr/{id}',
      handler: async (req) => {
        const d = deps();
        const job = await d.jobs.get(req.params.id ?? '');
        if (!job) throw notFound(`no job ${req.params.id}`);
        return json(200, workerInfo(job, d.now()));
      },
    },
    {
      // The seed requires the trailing slash; the slashless form points there instead of failing.
      method: 'GET',
      path: '/autoabr/result/{output}',
      handler: async (req) => {
        const query = new URLSearchParams(req.query).toString();
        return {
          status: 308,
          headers: { location: `${req.path}/${query ? `?${query}` : ''}` },
        };
      },
    },
    { method: 'GET', path: '/autoabr/result/{output}/', handler: (req) => results(deps(), req) },
    { method: 'GET', path: '/autoabr/result/{output}/ladder', handler: (req) => ladder(deps(), req) },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/{model}',
      handler: (req) => results(deps(), req, modelParam(req)),
    },
  ];
}

export const autoabrRoutes: Route[] = createAutoabrRoutes();
