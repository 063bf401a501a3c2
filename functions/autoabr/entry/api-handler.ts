/** Lambda entry of the AutoABR API (API Gateway HTTP API, payload v2). */
import { readString } from '../../../core/env';
import { createApiHandler } from '../../../core/http';
import { autoabrRoutes } from '../api/routes';
import { applyCloudEnv } from '../config/cloud-config';
import { loadDotEnv } from '../config/dotenv';

loadDotEnv();
applyCloudEnv();

export const handler = createApiHandler(autoabrRoutes, {
  stage: readString('ONAIR_STAGE', 'test'),
  maxBodyBytes: 64 * 1024,
});
