/**
 * The signing keys in one local file, `{ "current": JWK, "next": JWK }` (mode 0600). A file holding a
 * bare JWK (written before rotation existed) is read as the current key, so local tokens survive.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JWK } from 'jose';
import type { KeyStore, SigningKeys } from './signing-key';

function parse(text: string): SigningKeys {
  const value = JSON.parse(text) as Partial<SigningKeys> & JWK;
  if (value.current) return { current: value.current, ...(value.next ? { next: value.next } : {}) };
  return { current: value as JWK };
}

export class FileKeyStore implements KeyStore {
  readonly createOnFirstUse = true;

  constructor(private readonly path: string) {}

  get location(): string {
    return this.path;
  }

  async read(): Promise<SigningKeys | undefined> {
    try {
      return parse(await readFile(this.path, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async createIfAbsent(keys: SigningKeys): Promise<SigningKeys> {
    await mkdir(dirname(this.path), { recursive: true });
    try {
      // `wx`: of two processes starting at once, one creates, the other reads what it created.
      await writeFile(this.path, JSON.stringify(keys), { flag: 'wx', mode: 0o600 });
      return keys;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return (await this.read())!;
    }
  }

  async write(keys: SigningKeys): Promise<void> {
    // Written aside, then renamed over: a reader sees the old pair or the new one, never half a file.
    const temporary = `${this.path}.${process.pid}.tmp`;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(temporary, JSON.stringify(keys), { mode: 0o600 });
    await rename(temporary, this.path);
  }
}
