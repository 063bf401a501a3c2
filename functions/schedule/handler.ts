/**
 * Lambda entry of the schedule API (API Gateway HTTP API -> /api/v1/...). Dependencies are built on
 * the first request, so the local runner can set the AWS endpoints before any client exists.
 */

import { channelTokenVerifier } from '../../core/auth/token-verifier';
import { readEnum } from '../../core/env';
import { createApiHandler } from '../../core/http';
import { createScheduleRoutes } from './api/routes';
import { apiDepsFromEnv, type ScheduleApiDeps } from './deps';

const stage = readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test');
let deps: ScheduleApiDeps | undefined;

export const scheduleRoutes = createScheduleRoutes(() => {
  deps ??= apiDepsFromEnv({ verifyToken: channelTokenVerifier(stage) });
  return deps;
});

export const handler = createApiHandler(scheduleRoutes, {
  stage,
  maxBodyBytes: 16 * 1024,
});
