/**
 * Where the ES256 token-signing key lives. Generated once, then kept:
 * - in AWS, an SSM SecureString parameter (JWT_KEY_PARAMETER); the first Lambda to need it creates it
 *   with Overwrite=false, so concurrent cold starts agree on one key;
 * - locally, a JWK file under the data folder (JWT_KEY_FILE).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  GetParameterCommand,
  ParameterAlreadyExists,
  ParameterNotFound,
  PutParameterCommand,
  type SSMClient,
} from '@aws-sdk/client-ssm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { ssmClient } from '../aws';
import { readOptionalString } from '../env';

export interface KeyStore {
  /** The stored private JWK, or undefined when none exists yet. */
  read(): Promise<JWK | undefined>;
  /** Stores `key` unless one exists; returns the key that is stored afterwards. */
  createIfAbsent(key: JWK): Promise<JWK>;
}

export class FileKeyStore implements KeyStore {
  constructor(private readonly path: string) {}

  async read(): Promise<JWK | undefined> {
    try {
      return JSON.parse(await readFile(this.path, 'utf8')) as JWK;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async createIfAbsent(key: JWK): Promise<JWK> {
    await mkdir(dirname(this.path), { recursive: true });
    try {
      await writeFile(this.path, JSON.stringify(key), { flag: 'wx', mode: 0o600 });
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return (await this.read())!;
    }
  }
}

export class SsmKeyStore implements KeyStore {
  constructor(
    private readonly name: string,
    private readonly ssm: SSMClient = ssmClient(),
  ) {}

  async read(): Promise<JWK | undefined> {
    try {
      const res = await this.ssm.send(new GetParameterCommand({ Name: this.name, WithDecryption: true }));
      return res.Parameter?.Value ? (JSON.parse(res.Parameter.Value) as JWK) : undefined;
    } catch (err) {
      if (err instanceof ParameterNotFound) return undefined;
      throw err;
    }
  }

  async createIfAbsent(key: JWK): Promise<JWK> {
    try {
      await this.ssm.send(
        new PutParameterCommand({
          Name: this.name,
          Value: JSON.stringify(key),
          Type: 'SecureString',
          Overwrite: false,
        }),
      );
      return key;
    } catch (err) {
      if (!(err instanceof ParameterAlreadyExists)) throw err;
      return (await this.read())!;
    }
  }
}

/** JWT_KEY_PARAMETER (SSM) wins over JWT_KEY_FILE; the default is `.data/keys/jwt-es256.jwk.json`. */
export function keyStoreFromEnv(): KeyStore {
  const parameter = readOptionalString('JWT_KEY_PARAMETER');
  if (parameter) return new SsmKeyStore(parameter);
  return new FileKeyStore(readOptionalString('JWT_KEY_FILE') ?? '.data/keys/jwt-es256.jwk.json');
}

export async function loadOrCreateSigningKey(store: KeyStore): Promise<JWK> {
  const existing = await store.read();
  if (existing) return existing;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return store.createIfAbsent({ ...jwk, alg: 'ES256', use: 'sig' });
}
