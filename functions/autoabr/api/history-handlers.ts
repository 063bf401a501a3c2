/**
 * A tenant's job history and cancelling a job. Cancelling is one conditional write: a QUEUED job is
 * ended before any worker starts it (the dispatcher's claim then fails and it drops the message); a
 * RUNNING job's attempt is ended under its worker, whose next fenced write (heartbeat or progress)
 * is refused, so the worker stops there as it does for an attempt a sweep ended, without writing the
 * job again; its message is deleted here, as whoever ends an attempt settles it.
 */
import { badRequest, HttpError, notFound } from '../../../core/errors';
import { type ApiRequest, type ApiResponse, json } from '../../../core/http';
import { nextPageHeaders, type PageLimits, readPage } from '../../../core/paging';
import { type JobStatus, visibleTo, workerInfo } from '../domain/job';
import { jobPageKey } from '../ports/job-store';
import type { ApiDeps } from './api-deps';
import { jobIdParam } from './params';

export const HISTORY_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

const STATUSES: readonly JobStatus[] = ['ACTIVE', 'INACTIVE'];

function statusParam(req: ApiRequest): JobStatus {
  const status = req.query.status ?? 'INACTIVE';
  if (!STATUSES.includes(status as JobStatus))
    throw badRequest('status: must be ACTIVE or INACTIVE', 'status');
  return status as JobStatus;
}

/**
 * `GET /autoabr/jobs?status=`: the caller's jobs of one status (INACTIVE, the finished ones, by
 * default), newest first. As `GET /autoabr`, a page is read from every tenant's jobs of that status and
 * narrowed to the caller's, so it may hold fewer than `limit` while a next page is still named.
 */
export async function listJobs(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const status = statusParam(req);
  const page = readPage(req.query, HISTORY_PAGES, jobPageKey);
  if (page.after && page.after.status !== status)
    throw badRequest('cursor is not one this API issued for this list', 'cursor');
  const { items, next } = await deps.jobs.pageByStatus(status, page);
  const now = deps.now();
  const jobs = items.filter((j) => visibleTo(j, tenant)).map((j) => workerInfo(j, now));
  return json(200, { jobs }, nextPageHeaders(req, next));
}

/** `POST /autoabr/{id}/cancel`: 200 with the job as it now is (FAILED, error `cancelled`). */
export async function cancelJob(deps: ApiDeps, req: ApiRequest, tenant?: string): Promise<ApiResponse> {
  const id = jobIdParam(req);
  const job = await deps.jobs.get(id);
  if (!job || !visibleTo(job, tenant)) throw notFound(`no job ${id}`);
  const outcome = await deps.jobs.cancel(job, deps.now());
  if ('refused' in outcome)
    throw new HttpError(
      409,
      outcome.refused === 'finished' ? 'job_finished' : 'job_moved',
      outcome.refused === 'finished'
        ? `the job is over (${job.phase}): there is nothing to cancel`
        : 'the job started or finished while it was being cancelled: read it and try again',
    );
  if (job.phase === 'RUNNING' && job.receiptHandle) {
    const receipt = job.receiptHandle;
    await deps.queue.delete(receipt).catch((err) =>
      // The job is recorded as cancelled; a message left behind comes back and is dropped (not QUEUED).
      deps.log.warn('could not delete a cancelled job message', { jobId: id, err }),
    );
  }
  deps.log.info('job cancelled', { jobId: id, phase: job.phase });
  return json(200, workerInfo(outcome.cancelled, deps.now()));
}
