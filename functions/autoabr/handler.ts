/** Lambda entry of the AutoABR API (API Gateway HTTP API, payload v2). */
import { readString } from '../../core/env';
import { createApiHandler } from '../../core/http';
import { applyCloudEnv } from './cloud-config';
import { loadDotEnv } from './dotenv';
import { autoabrRoutes } from './routes';

loadDotEnv();
applyCloudEnv();

export const handler = createApiHandler(autoabrRoutes, {
  stage: readString('ONAIR_STAGE', 'test'),
  maxBodyBytes: 64 * 1024,
});
