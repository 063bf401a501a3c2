/** The signing keys' life: created locally on first use, published current and next, rotated. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileKeyStore,
  type KeyStore,
  loadSigningKeys,
  MissingSigningKeyError,
  newSigningKey,
  rotateSigningKeys,
} from '../../../core/auth/signing-key';
import { type Principal, TokenService } from '../../../core/auth/tokens';

const principal: Principal = { tenant: 'acme', env: 'test', plan: 'operator', maxChannels: 5 };
const bearer = (token: string) => `Bearer ${token}`;

describe('signing keys in a local key file', () => {
  let dir: string;
  let store: FileKeyStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'onair-keys-'));
    store = new FileKeyStore(join(dir, 'keys', 'jwt.json'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('creates a current and a distinct next key on first use, and reads the same ones after', async () => {
    const keys = await loadSigningKeys(store);
    expect(keys.current.kid).toBeTruthy();
    expect(keys.next?.kid).toBeTruthy();
    expect(keys.next!.kid).not.toBe(keys.current.kid);
    expect(await loadSigningKeys(store)).toEqual(keys);
  });

  it('publishes the current and the next public key, each with its kid and no private part', async () => {
    const keys = await loadSigningKeys(store);
    const { keys: published } = await (await TokenService.fromKeys(keys)).jwks();
    expect(published.map((k) => k.kid)).toEqual([keys.current.kid, keys.next!.kid]);
    expect(published.every((k) => k.d === undefined)).toBe(true);
  });

  it('makes next the current key and a fresh key next when rotating', async () => {
    const before = await loadSigningKeys(store);
    const rotation = await rotateSigningKeys(store);
    const after = (await store.read())!;
    expect(rotation.retired.kid).toBe(before.current.kid);
    expect(after.current).toEqual(before.next);
    expect([before.current.kid, before.next!.kid]).not.toContain(after.next!.kid);
  });

  it('refuses with 401 a token signed by the retired key', async () => {
    const old = await TokenService.fromKeys(await loadSigningKeys(store));
    const { token } = await old.issue(principal, 3600);
    await rotateSigningKeys(store);
    const rotated = await TokenService.fromKeys((await store.read())!);
    await expect(rotated.authenticate(bearer(token), 'test')).rejects.toMatchObject({ status: 401 });
  });

  it('signs with the new current key after a rotation, which verifiers not yet reloaded accept', async () => {
    const stale = await TokenService.fromKeys(await loadSigningKeys(store));
    await rotateSigningKeys(store);
    const rotated = await TokenService.fromKeys((await store.read())!);
    const { token } = await rotated.issue(principal, 3600);
    await expect(stale.authenticate(bearer(token), 'test')).resolves.toMatchObject({ tenant: 'acme' });
    await expect(rotated.authenticate(bearer(token), 'test')).resolves.toMatchObject({ tenant: 'acme' });
  });

  it('reads a key file of one bare key as the current key, and rotation gives it a successor', async () => {
    const legacy = await newSigningKey();
    await writeFile(join(dir, 'legacy.json'), JSON.stringify(legacy));
    const legacyStore = new FileKeyStore(join(dir, 'legacy.json'));
    expect(await loadSigningKeys(legacyStore)).toEqual({ current: legacy });
    await rotateSigningKeys(legacyStore);
    const rotated = JSON.parse(await readFile(join(dir, 'legacy.json'), 'utf8'));
    expect(rotated.current.kid).not.toBe(legacy.kid);
    expect(rotated.next.kid).toBeTruthy();
  });

  it('refuses to rotate keys that do not exist yet', async () => {
    await expect(rotateSigningKeys(store)).rejects.toBeInstanceOf(MissingSigningKeyError);
  });
});

describe('signing keys in a store that may not create them (SSM in AWS)', () => {
  it('fails fast with what to do when the keys are missing, and creates nothing', async () => {
    let created = false;
    const readOnly: KeyStore = {
      location: 'SSM /onair/test/jwt-signing-key/current',
      createOnFirstUse: false,
      read: async () => undefined,
      createIfAbsent: async (keys) => {
        created = true;
        return keys;
      },
      write: async () => {},
    };
    await expect(loadSigningKeys(readOnly)).rejects.toThrow(/no token signing key at SSM .*npm run keys/);
    expect(created).toBe(false);
  });
});
