/** Creating jobs and showing them: validate, call the domain, shape the answer. */
import { HttpError, notFound } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { nextPageHeaders, type PageLimits, readPage } from '../../../core/paging';
import { STORE_RETRY_AFTER_SECONDS } from '../../../core/store-errors';
import { activeJobPageKey, newJob, workerInfo } from '../domain/job';
import type { ApiDeps } from './api-deps';
import { parseJobRequest } from './job-request';
import { jobIdParam } from './params';

export async function createJob(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
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
    throw new HttpError(503, 'queue_unavailable', 'the job queue is unavailable; try again', {
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    });
  }
  return json(201, workerInfo(job, now), { location: `/autoabr/${job.id}` });
}

/** `GET /autoabr` pages: a worker's info is a few KB, and a page also stops short of 4 MB. */
export const WORKER_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

/** The ACTIVE jobs as worker info, oldest first, a page at a time. */
export async function listWorkers(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
  const page = readPage(req.query, WORKER_PAGES, activeJobPageKey);
  const { items, next } = await deps.jobs.pageActive(page);
  const now = deps.now();
  return json(200, { workers: items.map((j) => workerInfo(j, now)) }, nextPageHeaders(req, next));
}

export async function getJob(deps: ApiDeps, req: ApiRequest): Promise<ApiResponse> {
  const id = jobIdParam(req);
  const job = await deps.jobs.get(id);
  if (!job) throw notFound(`no job ${id}`);
  return json(200, workerInfo(job, deps.now()));
}
