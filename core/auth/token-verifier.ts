/**
 * The verifier wired into the schedule API when SCHEDULE_REQUIRE_AUTH=true: the channel service's
 * own token check (same signing key, same claims), so one `x-jwt` works on both APIs. The key is
 * loaded on first use and kept for the life of the container.
 */

import type { TokenVerifier } from '../../functions/schedule/auth';
import { readEnum } from '../env';
import { keyStoreFromEnv, loadOrCreateSigningKey } from './signing-key';
import { TokenService } from './tokens';

export function channelTokenVerifier(): TokenVerifier {
  let tokens: Promise<TokenService> | undefined;
  return async (header) => {
    tokens ??= loadOrCreateSigningKey(keyStoreFromEnv())
      .then((jwk) => TokenService.fromJwk(jwk))
      .catch((err) => {
        tokens = undefined; // a failed load (e.g. SSM unreachable) is retried on the next request
        throw err;
      });
    return (await tokens).authenticate(header, readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test'));
  };
}
