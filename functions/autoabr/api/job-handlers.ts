/** Creating jobs and showing them: validate, call the domain, shape the answer. */
import { HttpError, notFound } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { nextPageHeaders, type PageLimits, readPage } from '../../../core/paging';
import { STORE_RETRY_AFTER_SECONDS } from '../../../core/store-errors';
import { activeJobPageKey, newJob, tenantResultPrefix, visibleTo, workerInfo } from '../domain/job';
import { DEFAULT_PIPELINE } from '../domain/settings';
import type { ApiDeps } from './api-deps';
import { parseJobRequest } from './job-request';
import { jobIdParam } from './params';

export async function createJob(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const request = parseJobRequest(req.body);
  const [encoding, pipeline] = await Promise.all([
    deps.settings.encoding(request.encodingSettingsUrl),
    deps.settings.pipeline(request.pipelineUrl),
  ]);
  const now = deps.now();
  const job = newJob({
    id: deps.newId(),
    tenant,
    spec: request.job,
    encodingSettingsUrl: request.encodingSettingsUrl,
    pipelineUrl: request.pipelineUrl,
    encoding,
    pipeline: {
      ...pipeline,
      resultBucket: pipeline.resultBucket ?? deps.bucket,
      resultPrefix: tenantResultPrefix(tenant, pipeline.resultPrefix ?? DEFAULT_PIPELINE.resultPrefix),
    },
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
    throw new HttpError(503, 'queue_unavailable', 'the job queue is unavailable; try again', {
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    });
  }
  return json(201, workerInfo(job, now), { location: `/autoabr/${job.id}` });
}

/** `GET /autoabr` pages: a worker's info is a few KB, and a page also stops short of 4 MB. */
export const WORKER_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

/**
 * The caller's ACTIVE jobs as worker info, oldest first, a page at a time. With auth on, a page is
 * read from every tenant's ACTIVE jobs and then narrowed to the caller's: a page may hold fewer than
 * `limit` (even none) while a `link` to the next one is still given.
 */
export async function listWorkers(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const page = readPage(req.query, WORKER_PAGES, activeJobPageKey);
  const { items, next } = await deps.jobs.pageActive(page);
  const now = deps.now();
  const workers = items.filter((j) => visibleTo(j, tenant)).map((j) => workerInfo(j, now));
  return json(200, { workers }, nextPageHeaders(req, next));
}

/** Another tenant's job is a 404, exactly like a job that does not exist. */
export async function getJob(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const id = jobIdParam(req);
  const job = await deps.jobs.get(id);
  if (!job || !visibleTo(job, tenant)) throw notFound(`no job ${id}`);
  return json(200, workerInfo(job, deps.now()));
}
