/**
 * The verifier wired into the schedule API when SCHEDULE_REQUIRE_AUTH=true: the channel service's
 * own token check (same signing keys, same claims), so one `x-jwt` works on both APIs. The keys are
 * loaded on first use and reloaded every few minutes (a rotation reaches warm containers).
 */

import type { ApiRequest } from '../http';
import { keyStoreFromEnv, loadSigningKeys } from './signing-key';
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
    tokens ??= TokenService.fromSource(() => loadSigningKeys(keyStoreFromEnv())).catch((err) => {
      tokens = undefined; // a failed load (e.g. SSM unreachable) is retried on the next request
      throw err;
    });
    return (await tokens).authenticate(header, stage);
  };
}
