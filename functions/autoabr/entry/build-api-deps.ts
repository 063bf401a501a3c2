/** The API's dependencies, from its configuration: one set per API instance (the caches live here). */
import { awsClients } from '../adapters/aws-clients';
import { DynamoGenerationStore } from '../adapters/dynamo-generation-store';
import { S3ObjectStore } from '../adapters/s3-object-store';
import type { ApiDeps } from '../api/api-deps';
import { SettingsCache } from '../api/settings-cache';
import { type ApiConfig, apiConfigFromEnv } from '../config/service-config';
import { ScoreCache } from '../results/score-cache';
import { buildAttemptDeps } from './build-attempt-deps';

export function buildApiDeps(config: ApiConfig = apiConfigFromEnv()): ApiDeps {
  const clients = awsClients(config.aws.client);
  const objects = new S3ObjectStore(clients.s3);
  return {
    ...buildAttemptDeps(config.aws, clients),
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
