/**
 * Lambda entry of the AutoABR API (API Gateway HTTP API, payload v2); `npm start` serves the same
 * handler. The configuration is read once, when the handler is made; the dependencies are built on the
 * first request and kept for the life of the instance (its caches live in them).
 */
import { createApiHandler } from '../../../core/http';
import type { ApiDeps } from '../api/api-deps';
import { createAutoabrRoutes } from '../api/routes';
import { type ApiConfig, apiConfigFromEnv } from '../config/service-config';
import { buildApiDeps } from './build-api-deps';

export function createAutoabrHandler(config: ApiConfig = apiConfigFromEnv()) {
  let deps: ApiDeps | undefined;
  const lazyDeps = () => {
    deps ??= buildApiDeps(config);
    return deps;
  };
  return createApiHandler(createAutoabrRoutes(lazyDeps), { stage: config.stage, maxBodyBytes: 64 * 1024 });
}

export const handler = createAutoabrHandler();
