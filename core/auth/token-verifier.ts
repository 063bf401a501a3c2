/**
 * The verifier wired into the schedule API when SCHEDULE_REQUIRE_AUTH=true: the channel service's
 * own token check (same signing key, same claims), so one `x-jwt` works on both APIs. The key is
 * loaded on first use and kept for the life of the container.
 */

import type { ApiRequest } from '../http';
import { keyStoreFromEnv, loadOrCreateSigningKey } from './signing-key';
import { type Environment, TokenService } from './tokens';

/**
 * Verifies the raw `x-jwt` header value (undefined when absent). Throws an HttpError (401/403)
 * to refuse; any other error is treated as a refusal too.
 */
export type TokenVerifier = (xJwtHeader: string | undefined, req: ApiRequest) => Promise<unknown>;

/** `stage` is the deployment's environment: a token works only in the environment it names. */
export function channelTokenVerifier(stage: Environment): TokenVerifier {
  let tokens: Promise<TokenService> | undefined;
  return async (header) => {
    tokens ??= loadOrCreateSigningKey(keyStoreFromEnv())
      .then((jwk) => TokenService.fromJwk(jwk))
      .catch((err) => {
        tokens = undefined; // a failed load (e.g. SSM unreachable) is retried on the next request
        throw err;
      });
    return (await tokens).authenticate(header, stage);
  };
}
