/**
 * An output's results as JSON or CSV/TSV, a page at a time; the latest job of the output's name says
 * where its files are. Charts and ladders, which need every file at once, are in chart-handlers.ts.
 */
import { HttpError, notFound } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { nextPageHeaders, type PageLimits, readPage } from '../../../core/paging';
import { isStoreUnavailable } from '../../../core/store-errors';
import { compileJson, compileTable, type ScoredFile, TABLE_CONTENT_TYPE } from '../domain/compile-results';
import type { JobItem } from '../domain/job';
import { MODEL_NAMES, type ModelName } from '../domain/models';
import { resultPageKey } from '../domain/result-keys';
import { DEFAULT_PIPELINE } from '../domain/settings';
import { type ListedPage, type PageOptions, type ResultLocation, readResults } from '../results/read-results';
import type { ApiDeps } from './api-deps';
import { formatParam, outputParam } from './params';

/**
 * Result files per page: one job writes at most 3 models x 64 bitrates x 32 resolutions = 6,144, so
 * any one job's results fit the default page. A file's name and row are at most about 200 bytes
 * (domain/result-keys.ts bounds them), so a page stays far below a Lambda response's 6 MB.
 */
export const RESULT_PAGES: PageLimits = { defaultLimit: 10_000, maxLimit: 10_000 };

/**
 * Where an output's results are: the latest job of that name decides (its pipeline may name a bucket).
 * With auth on (`tenant` given) only the caller's own jobs count, and an output none of them made is a
 * 404: a tenant reads only what its jobs wrote, under its own prefix (job.ts tenantResultPrefix).
 */
export async function locate(
  deps: ApiDeps,
  output: string,
  tenant?: string,
): Promise<{ job: JobItem | undefined; loc: ResultLocation }> {
  const job = await deps.jobs.latestByName(output, tenant);
  if (tenant !== undefined && !job) throw notFound(`no results for ${output}`);
  return {
    job,
    loc: {
      bucket: job?.pipeline.resultBucket ?? deps.bucket,
      prefix: job?.pipeline.resultPrefix ?? DEFAULT_PIPELINE.resultPrefix,
      output,
    },
  };
}

/** A page of the output's scored files; the object store failing us is a 503 (retry) or a 502, not our 500. */
export async function read(
  deps: ApiDeps,
  loc: ResultLocation,
  page: PageOptions,
): Promise<ListedPage<ScoredFile>> {
  try {
    return await readResults(deps.objects, loc, {
      ...page,
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

/** A page of the compiled results of an output (every model, or `model` only) as JSON, CSV or TSV. */
export async function results(
  deps: ApiDeps,
  req: ApiRequest,
  model?: ModelName,
  tenant?: string,
): Promise<ApiResponse> {
  const output = outputParam(req);
  // svg (one model only) is routed to chart-handlers.ts; it is listed so a bad format names it.
  const format = formatParam(req, model ? (['csv', 'tsv', 'svg'] as const) : (['csv', 'tsv'] as const));
  const { limit, after } = readPage(req.query, RESULT_PAGES, resultPageKey(model));
  const { job, loc } = await locate(deps, output, tenant);
  const { files, next } = await read(deps, loc, { model, limit, after: after?.after });
  const paging = nextPageHeaders(req, next === undefined ? undefined : { after: next });
  if (format === 'csv' || format === 'tsv') {
    const base = model ? `${output}_${model}` : output;
    return {
      status: 200,
      headers: {
        'content-type': TABLE_CONTENT_TYPE[format],
        'content-disposition': `attachment; filename="${base}.${format}"`,
        ...paging,
      },
      rawBody: compileTable(output, files, format),
    };
  }
  return json(
    200,
    {
      id: job?.id ?? null,
      status: job?.status ?? 'INACTIVE',
      result: compileJson(output, files, model ? [model] : MODEL_NAMES),
    },
    paging,
  );
}
