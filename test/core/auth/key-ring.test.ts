/** A long-lived process reloads its signing keys, so a rotation reaches it without a restart. */
import { describe, expect, it } from 'vitest';
import { refreshingKeyRing } from '../../../core/auth/key-ring';
import { newSigningKeys, type SigningKeys } from '../../../core/auth/signing-key';

describe('refreshing key ring', () => {
  it('keeps its keys until the refresh interval has passed, then reloads them', async () => {
    const first = await newSigningKeys();
    const second = await newSigningKeys();
    let stored: SigningKeys = first;
    let t = 0;
    const ring = await refreshingKeyRing(
      async () => stored,
      1000,
      () => t,
    );
    stored = second;
    t = 999;
    expect((await ring()).signer?.kid).toBe(first.current.kid);
    t = 1000;
    expect((await ring()).signer?.kid).toBe(second.current.kid);
  });

  it('keeps the keys it holds when a reload fails', async () => {
    const keys = await newSigningKeys();
    let fail = false;
    let t = 0;
    const ring = await refreshingKeyRing(
      async () => {
        if (fail) throw new Error('SSM unreachable');
        return keys;
      },
      1000,
      () => t,
    );
    fail = true;
    t = 5000;
    expect((await ring()).signer?.kid).toBe(keys.current.kid);
  });

  it('fails when the first load fails', async () => {
    await expect(refreshingKeyRing(() => Promise.reject(new Error('no key')))).rejects.toThrow('no key');
  });
});
