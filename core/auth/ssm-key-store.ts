/**
 * The signing keys as two SSM SecureStrings, `<prefix>/current` and `<prefix>/next` (AWS-managed KMS
 * key, so readers need no KMS grant), their public halves kept in step at `<publicPrefix>/…`
 * (public-key-store.ts) after every write. Runtime roles may only read them: creating and rotating is
 * for the deploy (custom resource) and the operator (`npm run keys`), never for a Lambda or a task.
 */
import { ParameterAlreadyExists, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { JWK } from 'jose';
import { ssmClient } from '../aws';
import { publicKeys } from './key-ring';
import { publicKeyPrefix, readSsmKeyPair, SsmPublicKeyStore } from './public-key-store';
import type { KeyStore, SigningKeys } from './signing-key';

export class SsmKeyStore implements KeyStore {
  readonly createOnFirstUse = false;

  private readonly publicStore: SsmPublicKeyStore;

  constructor(
    private readonly prefix: string,
    private readonly ssm: SSMClient = ssmClient(),
    publicPrefix = publicKeyPrefix(prefix),
  ) {
    this.publicStore = new SsmPublicKeyStore(publicPrefix, ssm);
  }

  get location(): string {
    return `SSM ${this.prefix}/current`;
  }

  read(): Promise<SigningKeys | undefined> {
    return readSsmKeyPair(this.ssm, this.prefix, true);
  }

  async createIfAbsent(keys: SigningKeys): Promise<SigningKeys> {
    await this.put('current', keys.current, false);
    if (keys.next) await this.put('next', keys.next, false);
    const stored = (await this.read())!;
    // Also run when the private keys already existed: a stack from before the public keys gets them.
    await this.publicStore.write(await publicKeys(stored));
    return stored;
  }

  /** Private keys first: a verifier reading in between still knows the key that now signs (it was next). */
  async write(keys: SigningKeys): Promise<void> {
    await this.put('current', keys.current, true);
    if (keys.next) await this.put('next', keys.next, true);
    await this.publicStore.write(await publicKeys(keys));
  }

  private async put(which: 'current' | 'next', key: JWK, overwrite: boolean): Promise<void> {
    try {
      await this.ssm.send(
        new PutParameterCommand({
          Name: `${this.prefix}/${which}`,
          Value: JSON.stringify(key),
          Type: 'SecureString',
          Overwrite: overwrite,
          Description: `onair token signing key (${which}); rotate with npm run keys -- --rotate`,
        }),
      );
    } catch (err) {
      // Without overwrite, an existing key wins: concurrent creators agree on the first one.
      if (overwrite || !(err instanceof ParameterAlreadyExists)) throw err;
    }
  }
}
