/**
 * The signing keys as two SSM SecureStrings, `<prefix>/current` and `<prefix>/next` (AWS-managed KMS
 * key, so readers need no KMS grant). Runtime roles may only read them: creating and rotating is for
 * the deploy (custom resource) and the operator (`npm run keys`), never for a Lambda or a task.
 */
import {
  GetParametersCommand,
  ParameterAlreadyExists,
  PutParameterCommand,
  type SSMClient,
} from '@aws-sdk/client-ssm';
import type { JWK } from 'jose';
import { ssmClient } from '../aws';
import type { KeyStore, SigningKeys } from './signing-key';

export class SsmKeyStore implements KeyStore {
  readonly createOnFirstUse = false;

  constructor(
    private readonly prefix: string,
    private readonly ssm: SSMClient = ssmClient(),
  ) {}

  get location(): string {
    return `SSM ${this.prefix}/current`;
  }

  async read(): Promise<SigningKeys | undefined> {
    const names = { current: `${this.prefix}/current`, next: `${this.prefix}/next` };
    const res = await this.ssm.send(
      new GetParametersCommand({ Names: [names.current, names.next], WithDecryption: true }),
    );
    const value = (name: string): JWK | undefined => {
      const text = res.Parameters?.find((p) => p.Name === name)?.Value;
      return text ? (JSON.parse(text) as JWK) : undefined;
    };
    const current = value(names.current);
    const next = value(names.next);
    return current ? { current, ...(next ? { next } : {}) } : undefined;
  }

  async createIfAbsent(keys: SigningKeys): Promise<SigningKeys> {
    await this.put('current', keys.current, false);
    if (keys.next) await this.put('next', keys.next, false);
    return (await this.read())!;
  }

  async write(keys: SigningKeys): Promise<void> {
    await this.put('current', keys.current, true);
    if (keys.next) await this.put('next', keys.next, true);
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
