/**
 * An output's results: the compiled JSON, CSV/TSV tables, one model's rate-quality chart (SVG) and
 * the suggested ladders. The latest job of the output's name says where its files are.
 */
import { HttpError } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { isStoreUnavailable } from '../../../core/store-errors';
import { renderChart } from '../domain/chart-svg';
import {
  compareScored,
  compileJson,
  compileTable,
  type ScoredFile,
  TABLE_CONTENT_TYPE,
} from '../domain/compile-results';
import type { JobItem } from '../domain/job';
import { convexHull, type RatePoint, suggestLadder } from '../domain/ladder';
import { MODEL_NAMES, type ModelName } from '../domain/models';
import { DEFAULT_PIPELINE } from '../domain/settings';
import { type ResultLocation, readResults } from '../results/read-results';
import type { ApiDeps } from './api-deps';
import { formatParam, ladderOptions, outputParam } from './params';

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

/** The output's scored files; the object store failing us is a 503 (retry) or a 502, not our 500. */
async function read(deps: ApiDeps, loc: ResultLocation, model?: ModelName): Promise<ScoredFile[]> {
  try {
    return await readResults(deps.objects, loc, {
      model,
      concurrency: deps.config.resultConcurrency,
      log: deps.log,
      cache: deps.scores,
    });
  } catch (err) {
    // S3 timing out, throttling or failing on its side is worth a retry: the edge answers 503.
    if (isStoreUnavailable(err)) throw err;
    deps.log.error('could not read results', { loc, err });
    throw new HttpError(
      502,
      'results_unavailable',
      `could not read the results of ${loc.output}: ${(err as Error).message}`,
    );
  }
}

/** The compiled results of an output (every model, or `model` only) as JSON, CSV, TSV or an SVG chart. */
export async function results(deps: ApiDeps, req: ApiRequest, model?: ModelName): Promise<ApiResponse> {
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
        'content-disposition': `attachment; filename="${base}.${format}"`,
      },
      rawBody: compileTable(output, files, format),
    };
  }
  if (format === 'svg' && model) return chart(req, output, model, files);
  return json(200, {
    id: job?.id ?? null,
    status: job?.status ?? 'INACTIVE',
    result: compileJson(output, files, model ? [model] : MODEL_NAMES),
  });
}

function chart(req: ApiRequest, output: string, model: ModelName, files: ScoredFile[]): ApiResponse {
  const points = files.filter((f) => f.model === model);
  const hull = convexHull(points);
  return {
    status: 200,
    headers: {
      'content-type': 'image/svg+xml; charset=utf-8',
      'content-disposition': `inline; filename="${output}_${model}.svg"`,
    },
    rawBody: renderChart({
      title: `${output}: ${model} rate-quality`,
      points,
      hull,
      ladder: suggestLadder(hull, ladderOptions(req)),
    }),
  };
}

const point = ({ width, height, bitrate, score }: RatePoint): RatePoint => ({
  width,
  height,
  bitrate,
  score,
});

/** Per model: the measured points, their convex hull and the ladder suggested from it. */
export async function ladder(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
  const output = outputParam(req);
  const options = ladderOptions(req);
  const { job, loc } = await locate(deps, output);
  const files = await read(deps, loc);
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
