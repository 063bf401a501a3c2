/**
 * The shared playout log stores: the entry for hosts that build a store themselves. The engine's pure
 * folders (playout, render, hls, vod, ladder, channel) never import from here: AWS SDK and ioredis
 * stay at the edge.
 */
export { DynamoDbPlayoutLogStore, LEASE_SEQ } from './dynamo-log-store';
export { RedisPlayoutLogStore, type RedisStoreOptions } from './redis-log-store';
export { storeFromUrl } from './store-from-url';
