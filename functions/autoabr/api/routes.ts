/**
 * The AutoABR API (README "AutoABR: VMAF measurement jobs") as a route table. Handlers stay thin:
 * validate, call the domain, shape the answer. Dependencies come from the entry point, built once per
 * API instance (tests build two to play two instances). Every route but the health check first asks
 * who the caller is (api/auth.ts): a tenant when AUTOABR_REQUIRE_AUTH is on, nobody in particular
 * otherwise.
 */

import { z } from 'zod';
import { type ApiRequest, type ApiResponse, json, type Route } from '../../../core/http';
import { withOpenApi } from '../../../core/openapi';
import type { ApiDeps } from './api-deps';
import {
  AUTOABR_API_INFO,
  jobIdSchema,
  ladderQuery,
  ladderSchema,
  modelSchema,
  outputSchema,
  resultQuery,
  resultsSchema,
  workerInfoSchema,
} from './api-docs';
import { chart, ladder } from './chart-handlers';
import { cancelJob, listJobs } from './history-handlers';
import { createJob, getJob, listWorkers } from './job-handlers';
import { jobRequestSchema } from './job-request';
import { modelParam, outputParam } from './params';
import { results } from './result-handlers';

type TenantHandler = (req: ApiRequest, tenant: string | undefined) => Promise<ApiResponse> | ApiResponse;

export function createAutoabrRoutes(deps: () => ApiDeps): Route[] {
  const authed =
    (handler: TenantHandler) =>
    async (req: ApiRequest): Promise<ApiResponse> =>
      handler(req, await deps().authenticate(req));
  const output = { output: outputSchema };
  const exampleOutput = { params: { output: 'demo' } };
  return withOpenApi(AUTOABR_API_INFO, [
    {
      method: 'GET',
      path: '/',
      doc: {
        summary: 'Health check',
        tag: 'health',
        auth: 'none',
        responses: {
          200: { description: 'healthy', schema: z.object({ status: z.string(), service: z.string() }) },
        },
      },
      handler: async () => json(200, { status: 'healthy', service: 'autoabr' }),
    },
    {
      method: 'POST',
      path: '/autoabr',
      doc: {
        summary: 'Submit a VMAF measurement job',
        body: jobRequestSchema,
        responses: { 201: { description: 'the queued job', schema: workerInfoSchema } },
        example: {
          body: {
            job: {
              name: 'demo',
              reference: 's3://autoabr-local/reference/demo.mp4',
              models: ['HD'],
              bitrates: [1_000_000, 3_000_000],
              resolutions: [{ width: 1280, height: 720 }],
            },
          },
        },
      },
      handler: authed((req, t) => createJob(deps(), req, t)),
    },
    {
      method: 'GET',
      path: '/autoabr',
      doc: {
        summary: 'The active jobs (queued or running), oldest first',
        query: { limit: z.string(), cursor: z.string() },
        responses: {
          200: { description: 'a page', schema: z.object({ workers: z.array(workerInfoSchema) }) },
        },
      },
      handler: authed((req, t) => listWorkers(deps(), req, t)),
    },
    {
      // The settings cache holds only settings documents re-read from S3: clearing it shows nobody
      // anything, so any caller with the autoabr scope may (docs/autoabr-api.md).
      method: 'DELETE',
      path: '/autoabr/cache',
      doc: {
        summary: 'Forget the cached settings documents',
        responses: {
          200: { description: 'cleared', schema: z.object({ cleared: z.boolean(), generation: z.number() }) },
        },
      },
      handler: authed(async () => json(200, { cleared: true, generation: await deps().settings.clear() })),
    },
    {
      method: 'GET',
      path: '/autoabr/jobs',
      doc: {
        summary: "The caller's jobs of one status (INACTIVE, the finished ones, by default), newest first",
        query: {
          status: z
            .enum(['ACTIVE', 'INACTIVE'])
            .describe('INACTIVE (default): finished; ACTIVE: queued or running'),
          limit: z.string(),
          cursor: z.string(),
        },
        responses: { 200: { description: 'a page', schema: z.object({ jobs: z.array(workerInfoSchema) }) } },
        example: { query: { status: 'INACTIVE' } },
      },
      handler: authed((req, t) => listJobs(deps(), req, t)),
    },
    {
      method: 'POST',
      path: '/autoabr/{id}/cancel',
      doc: {
        summary: 'Cancel a queued or running job (it ends FAILED with error "cancelled")',
        params: { id: jobIdSchema },
        responses: {
          200: { description: 'the cancelled job', schema: workerInfoSchema },
          404: { description: 'no such job of the caller' },
          409: {
            description: 'the job is over (job_finished), or moved on while being cancelled (job_moved)',
          },
        },
        example: { params: { id: '00000000-0000-4000-8000-000000000000' } },
      },
      handler: authed((req, t) => cancelJob(deps(), req, t)),
    },
    {
      method: 'GET',
      path: '/autoabr/{id}',
      doc: {
        summary: 'A job: its status, phase and progress',
        params: { id: jobIdSchema },
        responses: { 200: { description: 'the job', schema: workerInfoSchema } },
        example: { params: { id: '00000000-0000-4000-8000-000000000000' } },
      },
      handler: authed((req, t) => getJob(deps(), req, t)),
    },
    {
      // Results live under a trailing slash; the slashless form points there instead of failing.
      method: 'GET',
      path: '/autoabr/result/{output}',
      doc: {
        summary: 'Redirects to the results (under a trailing slash)',
        tag: 'results',
        params: output,
        responses: { 308: { description: 'to /autoabr/result/{output}/' } },
        example: exampleOutput,
      },
      handler: authed(async (req) => {
        outputParam(req); // never point a client at a folder that cannot exist
        const query = new URLSearchParams(req.query).toString();
        return { status: 308, headers: { location: `${req.path}/${query ? `?${query}` : ''}` } };
      }),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/',
      doc: {
        summary: "An output's results, every model (JSON, CSV or TSV)",
        tag: 'results',
        params: output,
        query: resultQuery,
        responses: { 200: { description: 'a page of results', schema: resultsSchema } },
        example: exampleOutput,
      },
      handler: authed((req, t) => results(deps(), req, undefined, t)),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/ladder',
      doc: {
        summary: 'Per model: the measured points, their convex hull and the suggested ladder',
        tag: 'results',
        params: output,
        query: ladderQuery,
        responses: { 200: { description: 'the ladders', schema: ladderSchema } },
        example: exampleOutput,
      },
      handler: authed((req, t) => ladder(deps(), req, t)),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/{model}',
      doc: {
        summary: "One model's results; `?format=svg` is its rate-quality chart",
        tag: 'results',
        params: { ...output, model: modelSchema },
        query: { ...resultQuery, ...ladderQuery },
        responses: {
          200: { description: 'a page of results (JSON), or the chart (SVG)', schema: resultsSchema },
        },
        example: { params: { output: 'demo', model: 'HD' } },
      },
      handler: authed((req, t) => {
        const model = modelParam(req);
        return req.query.format === 'svg' ? chart(deps(), req, model, t) : results(deps(), req, model, t);
      }),
    },
  ]);
}
