/**
 * The shared store named by `kvstoreUrl` / `cachestoreUrl` (engine-container/README.md, "High
 * availability"): `redis://` or `rediss://` (a Redis server, ioredis URL syntax), `dynamodb://<table>`
 * (the table in the region and endpoint of the AWS SDK's environment; `dynamodb:` alone: the
 * playoutLog table of core/resources.ts). config.ts has already refused any other scheme. Both keep
 * items for `retainMs` after they end (start-over's retention, docs/timeshift.md).
 */
import { documentClient } from '../../../core/aws';
import { tableName, tables } from '../../../core/resources';
import type { PlayoutLogStore } from '../playout/log-store';
import { DynamoDbPlayoutLogStore } from './dynamo-log-store';
import { RedisPlayoutLogStore } from './redis-log-store';

export function storeFromUrl(
  url: string,
  clock: () => number = Date.now,
  retainMs = 86_400_000,
): PlayoutLogStore {
  const parsed = new URL(url);
  if (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:')
    return new RedisPlayoutLogStore(url, { clock, retainMs });
  if (parsed.protocol === 'dynamodb:') {
    // Opaque host: case is kept, as DynamoDB table names need.
    const table = decodeURIComponent(parsed.host) || tableName(tables.playoutLog);
    return new DynamoDbPlayoutLogStore(documentClient(), table, clock, Math.ceil(retainMs / 1000));
  }
  throw new Error(`no playout log store for ${parsed.protocol} URLs`);
}
