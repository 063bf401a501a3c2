/**
 * The signing keys made usable: the key that signs (with its kid; only when the keys are private
 * ones), the keys that verify (current and next, picked by the token's kid), and the public JWKS.
 * A ring made from public keys alone (public-key-store.ts) verifies and never signs.
 * `refreshingKeyRing` reloads the keys now and then, so a rotation reaches warm Lambdas and running
 * engine tasks without a redeploy.
 */
import {
  type CryptoKey,
  calculateJwkThumbprint,
  createLocalJWKSet,
  importJWK,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { logger } from '../logger';
import type { SigningKeys } from './signing-key';

export interface KeyRing {
  /** Absent when the ring holds public keys only. */
  signer?: { key: CryptoKey; kid: string };
  verifier: JWTVerifyGetKey;
  jwks: { keys: JWK[] };
}

/** The public half of a JWK, its kid the public key's thumbprint (as tokens name it). */
export async function publicJwk(privateJwk: JWK): Promise<JWK> {
  const pub = { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y };
  return { ...pub, alg: 'ES256', use: 'sig', kid: await calculateJwkThumbprint(pub) };
}

/** The public halves of the keys, as verifiers read them (public-key-store.ts). */
export async function publicKeys(keys: SigningKeys): Promise<SigningKeys> {
  return {
    current: await publicJwk(keys.current),
    ...(keys.next ? { next: await publicJwk(keys.next) } : {}),
  };
}

export async function keyRing(keys: SigningKeys): Promise<KeyRing> {
  const current = await publicJwk(keys.current);
  const published = [current];
  if (keys.next) {
    const next = await publicJwk(keys.next);
    if (next.kid !== current.kid) published.push(next);
  }
  const jwks = { keys: published };
  const signs = keys.current.d !== undefined;
  return {
    ...(signs
      ? { signer: { key: (await importJWK(keys.current, 'ES256')) as CryptoKey, kid: current.kid! } }
      : {}),
    verifier: createLocalJWKSet(jwks),
    jwks,
  };
}

/** How long keys are trusted before they are read again: the JWKS's own max-age. */
export const KEY_REFRESH_MS = 300_000;

/**
 * Loads the keys once (a failure is the caller's), then again when they are older than `refreshMs`.
 * A failed reload keeps the keys already held (a store blip must not stop signing) and is retried
 * after the next interval.
 */
export async function refreshingKeyRing(
  load: () => Promise<SigningKeys>,
  refreshMs = KEY_REFRESH_MS,
  clock: () => number = Date.now,
): Promise<() => Promise<KeyRing>> {
  let ring = await keyRing(await load());
  let loadedAt = clock();
  let reloading: Promise<KeyRing> | undefined;
  const reload = async (): Promise<KeyRing> => {
    try {
      ring = await keyRing(await load());
    } catch (err) {
      logger.warn('signing keys could not be reloaded; keeping the ones held', { err });
    }
    loadedAt = clock();
    return ring;
  };
  return async () => {
    if (clock() - loadedAt < refreshMs) return ring;
    reloading ??= reload().finally(() => {
      reloading = undefined;
    });
    return reloading;
  };
}
