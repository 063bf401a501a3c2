/**
 * The verifier wired into the schedule and AutoABR APIs when they require auth: the channel service's
 * own token check (same keys, same claims), so one `x-jwt` works on every API. In AWS it reads the
 * public keys only (JWT_PUBLIC_KEY_PARAMETER, public-key-store.ts); without that variable, the signing
 * keys as the channel service finds them (JWT_KEY_PARAMETER / JWT_KEY_FILE, as `npm start` runs it).
 * The keys are loaded on first use and reloaded every few minutes (a rotation reaches warm containers).
 */

import { decodeJwt } from 'jose';
import { readOptionalString } from '../env';
import type { ApiRequest } from '../http';
import { SsmPublicKeyStore } from './public-key-store';
import { keyStoreFromEnv, loadSigningKeys, MissingSigningKeyError, type SigningKeys } from './signing-key';
import { type Environment, TokenService } from './tokens';

/**
 * Verifies the raw `x-jwt` header value (undefined when absent). Throws an HttpError (401/403)
 * to refuse; any other error is treated as a refusal too.
 */
/** JWT_PUBLIC_KEY_PARAMETER (public keys in SSM) wins over the signing keys (keyStoreFromEnv). */
export function verificationKeysFromEnv(): () => Promise<SigningKeys> {
  const publicPrefix = readOptionalString('JWT_PUBLIC_KEY_PARAMETER');
  if (!publicPrefix) {
    const store = keyStoreFromEnv();
    return () => loadSigningKeys(store);
  }
  const store = new SsmPublicKeyStore(publicPrefix);
  return async () => {
    const keys = await store.read();
    if (!keys) throw new MissingSigningKeyError(store.location);
    return keys;
  };
}

export type TokenVerifier = (xJwtHeader: string | undefined, req: ApiRequest) => Promise<unknown>;

/**
 * `stage` is the deployment's environment: a token works only in the environment it names. Resolves
 * with the token's Principal (its subject is the tenant) plus `scopes`: the space-separated `scope`
 * claim of a verified token (e.g. the engine's `schedule:read-all`), empty when there is none.
 */
export function channelTokenVerifier(stage: Environment): TokenVerifier {
  let tokens: Promise<TokenService> | undefined;
  return async (header) => {
    tokens ??= TokenService.fromSource(verificationKeysFromEnv()).catch((err) => {
      tokens = undefined; // a failed load (e.g. SSM unreachable) is retried on the next request
      throw err;
    });
    const principal = await (await tokens).authenticate(header, stage);
    // Verified above: the payload is read again only for the claim Principal does not carry.
    const scope = decodeJwt(/^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '')?.[1] ?? '').scope;
    const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
    return { ...principal, scopes };
  };
}
