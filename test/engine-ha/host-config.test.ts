/** The engine host names its shared store and lease life from the environment. */
import { afterEach, describe, expect, it } from 'vitest';
import { engineHostConfigFromEnv } from '../../engine-container/host/config';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('the engine host configuration', () => {
  it('takes the shared store from ENGINE_KVSTORE_URL and the lease life from ENGINE_LEASE_TTL_S', () => {
    process.env.ENGINE_KVSTORE_URL = 'redis://cache.internal:6379';
    process.env.ENGINE_LEASE_TTL_S = '3';
    const { options } = engineHostConfigFromEnv();
    expect(options).toMatchObject({ kvstoreUrl: 'redis://cache.internal:6379', volatileKeyTTL: 3 });
  });

  it('leaves the store to ENGINE_LOG_STORE (DynamoDB by default) and the lease at 5 s without them', () => {
    delete process.env.ENGINE_KVSTORE_URL;
    delete process.env.ENGINE_LEASE_TTL_S;
    delete process.env.ENGINE_LOG_STORE;
    const config = engineHostConfigFromEnv();
    expect(config.options.kvstoreUrl).toBeUndefined();
    expect(config.options.volatileKeyTTL).toBe(5);
    expect(config.logStore).toBe('dynamodb');
  });
});
