/**
 * The AutoABR API (README "AutoABR: VMAF measurement jobs") as a route table. Handlers stay thin:
 * validate, call the domain, shape the answer. Dependencies come from the entry point, built once per
 * API instance (tests build two to play two instances).
 */
import { json, type Route } from '../../../core/http';
import type { ApiDeps } from './api-deps';
import { chart, ladder } from './chart-handlers';
import { createJob, getJob, listWorkers } from './job-handlers';
import { modelParam, outputParam } from './params';
import { results } from './result-handlers';

export function createAutoabrRoutes(deps: () => ApiDeps): Route[] {
  return [
    { method: 'GET', path: '/', handler: async () => json(200, { status: 'healthy', service: 'autoabr' }) },
    { method: 'POST', path: '/autoabr', handler: (req) => createJob(deps(), req) },
    { method: 'GET', path: '/autoabr', handler: (req) => listWorkers(deps(), req) },
    {
      method: 'DELETE',
      path: '/autoabr/cache',
      handler: async () => json(200, { cleared: true, generation: await deps().settings.clear() }),
    },
    { method: 'GET', path: '/autoabr/{id}', handler: (req) => getJob(deps(), req) },
    {
      // Results live under a trailing slash; the slashless form points there instead of failing.
      method: 'GET',
      path: '/autoabr/result/{output}',
      handler: async (req) => {
        outputParam(req); // never point a client at a folder that cannot exist
        const query = new URLSearchParams(req.query).toString();
        return { status: 308, headers: { location: `${req.path}/${query ? `?${query}` : ''}` } };
      },
    },
    { method: 'GET', path: '/autoabr/result/{output}/', handler: (req) => results(deps(), req) },
    { method: 'GET', path: '/autoabr/result/{output}/ladder', handler: (req) => ladder(deps(), req) },
    {
      method: 'GET',
      path: '/autoabr/result/{output}/{model}',
      handler: (req) => {
        const model = modelParam(req);
        return req.query.format === 'svg' ? chart(deps(), req, model) : results(deps(), req, model);
      },
    },
  ];
}
