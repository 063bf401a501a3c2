/**
 * Lambda entry of the schedule API (API Gateway HTTP API -> /api/v1/...). Dependencies are built on
 * the first request, so the local runner can set the AWS endpoints before any client exists.
 */

import { channelTokenVerifier } from '../../core/auth/token-verifier';
import { readString } from '../../core/env';
import { createApiHandler } from '../../core/http';
import { apiDepsFromEnv, type ScheduleApiDeps } from './deps';
import { createScheduleRoutes } from './routes';

let deps: ScheduleApiDeps | undefined;

export const scheduleRoutes = createScheduleRoutes(() => {
  deps ??= apiDepsFromEnv({ verifyToken: channelTokenVerifier() });
  return deps;
});

export const handler = createApiHandler(scheduleRoutes, {
  stage: readString('ONAIR_STAGE', 'test'),
  maxBodyBytes: 16 * 1024,
});
