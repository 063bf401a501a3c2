/**
 * ALLOW_PRIVATE_URLS: whether URLs fetched on a user's behalf may reach private, loopback and
 * link-local addresses. False (refused) unless set: every deployment refuses them; `npm start` sets it
 * to true (local/system.ts) because its media, feeds and webhooks live on localhost. Read once, at
 * each entry point (engine host, channel API, schedule service). docs/security.md.
 *
 * SCHEDULE_BLOCK_PRIVATE_URLS is its deprecated inverse, honoured only when ALLOW_PRIVATE_URLS is unset.
 */
import { readBool } from '../env';

type Env = Record<string, string | undefined>;

export function allowPrivateUrlsFromEnv(env: Env = process.env): boolean {
  const legacyBlock = readBool('SCHEDULE_BLOCK_PRIVATE_URLS', true, env);
  return readBool('ALLOW_PRIVATE_URLS', !legacyBlock, env);
}
