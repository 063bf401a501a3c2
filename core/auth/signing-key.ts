/**
 * The deployment's ES256 token-signing keys: a `current` key that signs, and a `next` key that is
 * published (JWKS) and accepted before it signs, so a rotation never meets a verifier that has not
 * heard of the new key. Tokens signed by a retired key are refused.
 * - In AWS the keys are SSM SecureStrings `<JWT_KEY_PARAMETER>/current` and `/next`, created once at
 *   deploy (the stack's SigningKeys custom resource); runtime roles may only read them, so a missing
 *   key fails fast with what to do rather than being made up by whichever Lambda starts first.
 * - Locally they are one JWK-pair file (JWT_KEY_FILE), created on first use.
 * Rotation (`npm run keys -- --rotate`): next becomes current, a fresh key becomes next.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { readOptionalString } from '../env';
import { FileKeyStore } from './file-key-store';
import { SsmKeyStore } from './ssm-key-store';

export { FileKeyStore, SsmKeyStore };

export interface SigningKeys {
  /** Signs every token; verified too. */
  current: JWK;
  /** Verified and published, not yet signing; absent only in a key file from before rotation existed. */
  next?: JWK;
}

export interface KeyStore {
  /** Where the keys live, for messages. */
  readonly location: string;
  /** Whether a process may create the keys when they are missing (a local file: yes; SSM: no). */
  readonly createOnFirstUse: boolean;
  /** The stored keys, or undefined when there is no current key yet. */
  read(): Promise<SigningKeys | undefined>;
  /** Stores `keys` where none exist; returns what is stored afterwards. */
  createIfAbsent(keys: SigningKeys): Promise<SigningKeys>;
  /** Replaces the stored keys, `current` first (a reader in between sees the new current twice). */
  write(keys: SigningKeys): Promise<void>;
}

/** A fresh ES256 private JWK whose `kid` is its public key's thumbprint (the kid tokens carry). */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  return { ...jwk, alg: 'ES256', use: 'sig', kid };
}

export async function newSigningKeys(): Promise<SigningKeys> {
  return { current: await newSigningKey(), next: await newSigningKey() };
}

export class MissingSigningKeyError extends Error {
  constructor(location: string) {
    super(
      `no token signing key at ${location}. The stack creates it at deploy (SigningKeys); ` +
        'for a stack deployed before that, run `npm run keys -- --stage <stage> --create` (docs/deploy.md)',
    );
    this.name = 'MissingSigningKeyError';
  }
}

/** The keys to sign and verify with: read, or created where the store allows it (locally). */
export async function loadSigningKeys(store: KeyStore): Promise<SigningKeys> {
  const existing = await store.read();
  if (existing) return existing;
  if (!store.createOnFirstUse) throw new MissingSigningKeyError(store.location);
  return store.createIfAbsent(await newSigningKeys());
}

export interface Rotation {
  retired: JWK;
  keys: SigningKeys;
}

/** Next becomes current and a fresh key becomes next; tokens signed by the old current stop working. */
export async function rotateSigningKeys(store: KeyStore): Promise<Rotation> {
  const existing = await store.read();
  if (!existing) throw new MissingSigningKeyError(store.location);
  const keys = { current: existing.next ?? (await newSigningKey()), next: await newSigningKey() };
  await store.write(keys);
  return { retired: existing.current, keys };
}

/** JWT_KEY_PARAMETER (the SSM name prefix) wins over JWT_KEY_FILE (`.data/keys/jwt-es256.jwk.json`). */
export function keyStoreFromEnv(): KeyStore {
  const parameter = readOptionalString('JWT_KEY_PARAMETER');
  if (parameter) return new SsmKeyStore(parameter);
  return new FileKeyStore(readOptionalString('JWT_KEY_FILE') ?? '.data/keys/jwt-es256.jwk.json');
}
