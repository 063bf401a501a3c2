/** The API's dependencies, from its configuration: one set per API instance (the caches live here). */
import { channelTokenVerifier, type TokenVerifier } from '../../../core/auth/token-verifier';
import { awsClients } from '../adapters/aws-clients';
import { DynamoGenerationStore } from '../adapters/dynamo-generation-store';
import { S3ObjectStore } from '../adapters/s3-object-store';
import type { ApiDeps } from '../api/api-deps';
import { createAutoabrAuth } from '../api/auth';
import { SettingsCache } from '../api/settings-cache';
import { type ApiConfig, apiConfigFromEnv } from '../config/service-config';
import { ScoreCache } from '../results/score-cache';
import { buildAttemptDeps } from './build-attempt-deps';

export interface BuildApiOptions {
  /** The token check when auth is required; default: the channel service's, for ONAIR_STAGE. */
  verifyToken?: TokenVerifier;
}

export function buildApiDeps(config: ApiConfig = apiConfigFromEnv(), options: BuildApiOptions = {}): ApiDeps {
  const clients = awsClients(config.aws.client);
  const objects = new S3ObjectStore(clients.s3);
  const attempt = buildAttemptDeps(config.aws, clients);
  const verifyToken =
    options.verifyToken ??
    (config.requireAuth ? channelTokenVerifier(config.stage === 'prod' ? 'prod' : 'test') : undefined);
  return {
    ...attempt,
    authenticate: createAutoabrAuth({ required: config.requireAuth, verifyToken, log: attempt.log }),
    objects,
    settings: new SettingsCache({
      fetchText: (loc) => objects.getText(loc, config.maxSettingsBytes),
      generations: new DynamoGenerationStore(clients.ddb, config.aws.table),
      now: Date.now,
      checkEveryMs: config.cacheCheckMs,
    }),
    scores: new ScoreCache(),
    config,
    bucket: config.aws.bucket,
    newId: () => crypto.randomUUID(),
  };
}
