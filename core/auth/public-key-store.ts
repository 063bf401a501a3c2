/**
 * The public halves of the signing keys, for services that only verify tokens (schedule, AutoABR): SSM
 * String parameters `<prefix>/current` and `<prefix>/next` (JWT_PUBLIC_KEY_PARAMETER), each a public
 * JWK with its kid. They are written with the private keys, by whoever writes those (the deploy's
 * custom resource, `npm run keys`: ssm-key-store.ts), so a verifier's role needs no access to the
 * private keys, nor any KMS key.
 */
import { GetParametersCommand, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { JWK } from 'jose';
import { ssmClient } from '../aws';
import type { SigningKeys } from './signing-key';

/**
 * The public keys' prefix next to the private keys':
 * `/onair/test/jwt-signing-key` → `/onair/test/jwt-public-keys`.
 */
export function publicKeyPrefix(privatePrefix: string): string {
  return `${privatePrefix.slice(0, privatePrefix.lastIndexOf('/'))}/jwt-public-keys`;
}

/**
 * The JWKs at `<prefix>/current` and `<prefix>/next` in one call (SecureStrings decrypted when asked),
 * or undefined when there is no current one yet.
 */
export async function readSsmKeyPair(
  ssm: SSMClient,
  prefix: string,
  withDecryption: boolean,
): Promise<SigningKeys | undefined> {
  const names = { current: `${prefix}/current`, next: `${prefix}/next` };
  const res = await ssm.send(
    new GetParametersCommand({ Names: [names.current, names.next], WithDecryption: withDecryption }),
  );
  const value = (name: string): JWK | undefined => {
    const text = res.Parameters?.find((p) => p.Name === name)?.Value;
    return text ? (JSON.parse(text) as JWK) : undefined;
  };
  const current = value(names.current);
  const next = value(names.next);
  return current ? { current, ...(next ? { next } : {}) } : undefined;
}

export class SsmPublicKeyStore {
  constructor(
    private readonly prefix: string,
    private readonly ssm: SSMClient = ssmClient(),
  ) {}

  get location(): string {
    return `SSM ${this.prefix}/current`;
  }

  /** The public keys, or undefined when there is no current one yet. */
  read(): Promise<SigningKeys | undefined> {
    return readSsmKeyPair(this.ssm, this.prefix, false);
  }

  /** Replaces both (public JWKs only: a private part here is refused, it would be readable by verifiers). */
  async write(keys: SigningKeys): Promise<void> {
    for (const [which, key] of Object.entries(keys) as ['current' | 'next', JWK][]) {
      if (key.d !== undefined)
        throw new Error(`refusing to publish a private key as ${this.prefix}/${which}`);
      await this.ssm.send(
        new PutParameterCommand({
          Name: `${this.prefix}/${which}`,
          Value: JSON.stringify(key),
          Type: 'String',
          Overwrite: true,
          Description: `onair token verification key (${which}, public); written with the signing key`,
        }),
      );
    }
  }
}
