/**
 * AutoABR's own credential settings, turned into settings for its AWS clients. They are handed to the
 * clients AutoABR creates and never written into the environment: under `npm start` every service
 * shares one process, and the others must keep the local cloud's credentials.
 * - LOAD_CREDENTIALS_FROM_ENV=true: CLOUD_ACCESS_KEY_ID / CLOUD_SECRET_ACCESS_KEY are the credentials;
 * - LOAD_CREDENTIALS_FROM_ENV=false: the shared credentials file (~/.aws/credentials, profile AWS_PROFILE
 *   or `default`), except in Lambda and ECS, where the role's credentials are the only right answer,
 *   and against the local cloud (AWS_ENDPOINT_URL_* set), whose runner provides its own;
 * - unset: the SDK's default chain (environment, file, role).
 * CLOUD_REGION sets the region unless AWS_REGION is already set.
 */
import type { ClientSettings } from '../../../core/aws';
import { ConfigError, readBool } from '../../../core/env';

const inAwsCompute = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(
    env.AWS_LAMBDA_FUNCTION_NAME || env.ECS_CONTAINER_METADATA_URI_V4 || env.ECS_CONTAINER_METADATA_URI,
  );

/** Pointed at stand-ins (the local cloud): their runner's credentials are the right ones. */
const onLocalEndpoints = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(
    env.AWS_ENDPOINT_URL ||
      env.AWS_ENDPOINT_URL_DYNAMODB ||
      env.AWS_ENDPOINT_URL_S3 ||
      env.AWS_ENDPOINT_URL_SQS,
  );

export function cloudClientSettings(env: NodeJS.ProcessEnv): ClientSettings {
  const settings: ClientSettings = {};
  if (env.CLOUD_REGION && !env.AWS_REGION) settings.region = env.CLOUD_REGION;
  if (env.LOAD_CREDENTIALS_FROM_ENV === undefined || env.LOAD_CREDENTIALS_FROM_ENV.trim() === '')
    return settings;
  if (readBool('LOAD_CREDENTIALS_FROM_ENV', false, env)) {
    if (!env.CLOUD_ACCESS_KEY_ID || !env.CLOUD_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        'LOAD_CREDENTIALS_FROM_ENV=true needs CLOUD_ACCESS_KEY_ID and CLOUD_SECRET_ACCESS_KEY',
      );
    }
    settings.credentials = {
      accessKeyId: env.CLOUD_ACCESS_KEY_ID,
      secretAccessKey: env.CLOUD_SECRET_ACCESS_KEY,
    };
  } else if (!inAwsCompute(env) && !onLocalEndpoints(env)) {
    settings.profile = env.AWS_PROFILE || 'default';
  }
  return settings;
}
