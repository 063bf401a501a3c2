/**
 * The AutoABR API (README "AutoABR: VMAF measurement jobs") as a route table. Handlers stay thin:
 * validate, call the domain, shape the answer. Dependencies come from the entry point, built once per
 * API instance (tests build two to play two instances). Every route but the health check first asks
 * who the caller is (api/auth.ts): a tenant when AUTOABR_REQUIRE_AUTH is on, nobody in particular
 * otherwise.
 */
import { type ApiRequest, type ApiResponse, json, type Route } from '../../../core/http';
import type { ApiDeps } from './api-deps';
import { chart, ladder } from './chart-handlers';
import { createJob, getJob, listWorkers } from './job-handlers';
import { modelParam, outputParam } from './params';
import { results } from './result-handlers';

type TenantHandler = (req: ApiRequest, tenant: string | undefined) => Promise<ApiResponse> | ApiResponse;

export function createAutoabrRoutes(deps: () => ApiDeps): Route[] {
  const authed =
    (handler: TenantHandler) =>
    async (req: ApiRequest): Promise<ApiResponse> =>
      handler(req, await deps().authenticate(req));
  return [
    { method: 'GET', path: '/', handler: async () => json(200, { status: 'healthy', service: 'autoabr' }) },
    { method: 'POST', path: '/autoabr', handler: authed((req, t) => createJob(deps(), req, t)) },
    { method: 'GET', path: '/autoabr', handler: authed((req, t) => listWorkers(deps(), req, t)) },
    {
      // The settings cache holds only settings documents re-read from S3: clearing it shows nobody
      // anything, so any caller with the autoabr scope may (docs/autoabr-api.md).
      method: 'DELETE',
      path: '/autoabr/cache',
      handler: authed(async () => json(200, { cleared: true, generation: await deps().settings.clear() })),
    },
    { method: 'GET', path: '/autoabr/{id}', handler: authed((req, t) => getJob(deps(), req, t)) },
    {
      // Results live under a trailing slash; the slashless form points there instead of failing.
      method: 'GET',
      path: '/autoabr/result/{output}',
      handler: authed(async (req) => {
        outputParam(req); // never point a client at a folder that cannot exist
        const query = new URLSearchParams(req.query).toString();
        return { status: 308, headers: { location: `${req.path}/${query ? `?${query}` : ''}` } };
      }),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/',
      handler: authed((req, t) => results(deps(), req, undefined, t)),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/ladder',
      handler: authed((req, t) => ladder(deps(), req, t)),
    },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/{model}',
      handler: authed((req, t) => {
        const model = modelParam(req);
        return req.query.format === 'svg' ? chart(deps(), req, model, t) : results(deps(), req, model, t);
      }),
    },
  ];
}
