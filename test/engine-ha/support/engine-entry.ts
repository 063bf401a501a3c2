/**
 * One engine process for the failover tests: the library's Engine with the host's WebHook asset
 * manager (engine-container/host), one WebHook channel, and the shared store named by HA_STORE_URL.
 * Settings come from the environment (see engine-processes.ts); prints `listening <port>` when up.
 * SIGTERM stops it cleanly; the tests also kill it with SIGKILL.
 */
import { OnairAssetManager } from '../../../engine-container/host/onair-asset-manager';
import { Engine } from '../../../engine-container/src/engine';
import type { Channel } from '../../../engine-container/src/types';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const channel: Channel = {
  id: env('HA_CHANNEL'),
  name: env('HA_CHANNEL'),
  options: { type: 'WebHook', url: env('HA_WEBHOOK_URL'), tenant: 'ha' },
};
const assets = new OnairAssetManager({
  channel: (id) => (id === channel.id ? channel : undefined),
  webhookTimeoutMs: Number(env('HA_WEBHOOK_TIMEOUT_MS')),
});
const engine = new Engine(assets, {
  kvstoreUrl: env('HA_STORE_URL'),
  port: Number(env('HA_PORT')),
  host: '127.0.0.1',
  channelManager: { getChannels: () => [channel] },
  defaultSlateUri: env('HA_SLATE_URI'),
  slateRepetitions: 1,
  forceTargetDuration: 4,
  playlistWindowMs: 16_000,
  volatileKeyTTL: Number(env('HA_LEASE_TTL_S')),
  getNextVodTimeoutMs: 1500,
  vodLoadTimeoutMs: 2000,
  sessionEventStream: true,
});
await engine.start();
process.stdout.write(`listening ${engine.port} ${engine.core.instanceId}\n`);
process.once('SIGTERM', () => {
  void engine.stop().then(() => process.exit(0));
});
