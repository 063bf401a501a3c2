/**
 * What is computed over every result file of an output at once: one model's rate-quality chart (SVG)
 * and the suggested ladders. They do not page; an output with more files than they take is refused
 * (a 4xx that says so), never answered from part of its files or with a response past Lambda's 6 MB.
 */
import { badRequest, HttpError } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { renderChart } from '../domain/chart-svg';
import { compareScored, type ScoredFile } from '../domain/compile-results';
import { convexHull, type RatePoint, suggestLadder } from '../domain/ladder';
import { MODEL_NAMES, type ModelName } from '../domain/models';
import type { ApiDeps } from './api-deps';
import { ladderOptions, outputParam } from './params';
import { locate, read } from './result-handlers';

/**
 * As many as one job can write (3 models x 64 bitrates x 32 resolutions): a chart costs up to about
 * 500 bytes a point (its circle, its line, a legend entry when it is a resolution of its own), so even
 * then it stays far below 6 MB.
 */
export const MAX_CHART_FILES = 6_144;

/** Every scored file of the output (or one model), or a 422 when there are more than a chart takes. */
async function everyFile(deps: ApiDeps, req: ApiRequest, tenant: string | undefined, model?: ModelName) {
  for (const name of ['limit', 'cursor'])
    if (req.query[name] !== undefined)
      throw badRequest(`${name}: charts and ladders take every result file at once; they do not page`, name);
  const output = outputParam(req);
  const { job, loc } = await locate(deps, output, tenant);
  const { files, next } = await read(deps, loc, { model, limit: MAX_CHART_FILES });
  if (next !== undefined)
    throw new HttpError(
      422,
      'too_many_results',
      `${output} has more than ${MAX_CHART_FILES} result files, more than a chart or ladder takes; page its results instead`,
    );
  return { output, job, files };
}

/** One model's rate-quality chart: a line per resolution, the hull dashed, the ladder ringed. */
export async function chart(
  deps: ApiDeps,
  req: ApiRequest,
  model: ModelName,
  tenant?: string,
): Promise<ApiResponse> {
  const options = ladderOptions(req);
  const { output, files } = await everyFile(deps, req, tenant, model);
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
      ladder: suggestLadder(hull, options),
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
export async function ladder(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const options = ladderOptions(req);
  const { output, job, files } = await everyFile(deps, req, tenant);
  const models: Record<string, { points: RatePoint[]; hull: RatePoint[]; ladder: RatePoint[] }> = {};
  for (const model of MODEL_NAMES) {
    const points = files.filter((f: ScoredFile) => f.model === model).sort(compareScored);
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
