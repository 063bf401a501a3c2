/**
 * The seed's credential settings, mapped onto the AWS SDK's own variables before any client exists:
 * - LOAD_CREDENTIALS_FROM_ENV=true: CLOUD_ACCESS_KEY_ID / CLOUD_SECRET_ACCESS_KEY are the credentials;
 * - LOAD_CREDENTIALS_FROM_ENV=false: the shared credentials file (~/.aws/credentials, AWS_PROFILE), except
 *   in Lambda and ECS, where the role's credentials are the only right answer, and against the local
 *   cloud (AWS_ENDPOINT_URL_* set), whose runner provides its own;
 * - unset: the SDK's default chain (environment, file, role).
 * CLOUD_REGION sets the region unless AWS_REGION is already set.
 */
import { ConfigError, readBool } from '../../../core/env';

type Env = Record<string, string | undefined>;

const inAwsCompute = (env: Env): boolean =>
  Boolean(
    env.AWS_LAMBDA_FUNCTION_NAME || env.ECS_CONTAINER_METADATA_URI_V4 || env.ECS_CONTAINER_METADATA_URI,
  );

/** Pointed at stand-ins (the local cloud): their runner's credentials are the right ones. */
const onLocalEndpoints = (env: Env): boolean =>
  Boolean(
    env.AWS_ENDPOINT_URL ||
      env.AWS_ENDPOINT_URL_DYNAMODB ||
      env.AWS_ENDPOINT_URL_S3 ||
      env.AWS_ENDPOINT_URL_SQS,
  );

/** Changes to apply to the environment (undefined = delete the variable). */
export function cloudEnvChanges(env: Env): Record<string, string | undefined> {
  const changes: Record<string, string | undefined> = {};
  if (env.CLOUD_REGION && !env.AWS_REGION) changes.AWS_REGION = env.CLOUD_REGION;
  if (env.LOAD_CREDENTIALS_FROM_ENV === undefined || env.LOAD_CREDENTIALS_FROM_ENV.trim() === '')
    return changes;
  const fromEnv = readBool('LOAD_CREDENTIALS_FROM_ENV', false, env);
  if (fromEnv) {
    if (!env.CLOUD_ACCESS_KEY_ID || !env.CLOUD_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        'LOAD_CREDENTIALS_FROM_ENV=true needs CLOUD_ACCESS_KEY_ID and CLOUD_SECRET_ACCESS_KEY',
      );
    }
    changes.AWS_ACCESS_KEY_ID = env.CLOUD_ACCESS_KEY_ID;
    changes.AWS_SECRET_ACCESS_KEY = env.CLOUD_SECRET_ACCESS_KEY;
    changes.AWS_SESSION_TOKEN = undefined;
  } else if (!inAwsCompute(env) && !onLocalEndpoints(env)) {
    changes.AWS_ACCESS_KEY_ID = undefined;
    changes.AWS_SECRET_ACCESS_KEY = undefined;
    changes.AWS_SESSION_TOKEN = undefined;
  }
  return changes;
}

export function applyCloudEnv(env: Env = process.env): void {
  for (const [k, v] of Object.entries(cloudEnvChanges(env))) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
}
