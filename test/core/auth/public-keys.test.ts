/**
 * Services that only verify tokens (schedule, AutoABR) hold the public halves of the signing keys:
 * the same tokens verify, nothing can be signed, and the SSM store publishes them whenever it writes.
 */
import {
  GetParametersCommand,
  ParameterAlreadyExists,
  PutParameterCommand,
  type SSMClient,
} from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { publicKeys } from '../../../core/auth/key-ring';
import { publicKeyPrefix, SsmPublicKeyStore } from '../../../core/auth/public-key-store';
import { newSigningKeys, rotateSigningKeys, SsmKeyStore } from '../../../core/auth/signing-key';
import { type Principal, TokenService } from '../../../core/auth/tokens';

const principal: Principal = { tenant: 'acme', env: 'test', plan: 'operator', maxChannels: 5 };

/** SSM's GetParameters and PutParameter over a map, with the parameter types SSM would store. */
function memorySsm() {
  const parameters = new Map<string, { Value: string; Type: string }>();
  const client = {
    async send(command: unknown) {
      if (command instanceof PutParameterCommand) {
        const { Name, Value, Type, Overwrite } = command.input;
        if (parameters.has(Name!) && !Overwrite)
          throw new ParameterAlreadyExists({ message: Name!, $metadata: {} });
        parameters.set(Name!, { Value: Value!, Type: Type! });
        return {};
      }
      if (command instanceof GetParametersCommand) {
        const found = (command.input.Names ?? []).flatMap((Name) => {
          const p = parameters.get(Name);
          return p ? [{ Name, ...p }] : [];
        });
        return { Parameters: found };
      }
      throw new Error(`unexpected command ${String(command)}`);
    },
  };
  return { parameters, client: client as unknown as SSMClient };
}

describe('public signing keys', () => {
  it('verify the tokens the private keys sign', async () => {
    const keys = await newSigningKeys();
    const { token } = await (await TokenService.fromKeys(keys)).issue(principal, 3600);
    const verifier = await TokenService.fromKeys(await publicKeys(keys));
    await expect(verifier.authenticate(`Bearer ${token}`, 'test')).resolves.toMatchObject({ tenant: 'acme' });
  });

  it('carry no private part and keep the kids tokens name', async () => {
    const keys = await newSigningKeys();
    const published = await publicKeys(keys);
    expect(published.current.d).toBeUndefined();
    expect(published.next?.d).toBeUndefined();
    expect([published.current.kid, published.next?.kid]).toEqual([keys.current.kid, keys.next?.kid]);
  });

  it('cannot sign a token', async () => {
    const verifier = await TokenService.fromKeys(await publicKeys(await newSigningKeys()));
    await expect(verifier.issue(principal, 3600)).rejects.toThrow(/never sign/);
  });

  it('live next to the private keys in SSM', () => {
    expect(publicKeyPrefix('/onair/prod/jwt-signing-key')).toBe('/onair/prod/jwt-public-keys');
  });
});

describe('the SSM key store', () => {
  it('publishes the public keys as plain String parameters when it creates the private ones', async () => {
    const ssm = memorySsm();
    const store = new SsmKeyStore('/onair/test/jwt-signing-key', ssm.client);
    const keys = await store.createIfAbsent(await newSigningKeys());
    expect(ssm.parameters.get('/onair/test/jwt-signing-key/current')?.Type).toBe('SecureString');
    expect(ssm.parameters.get('/onair/test/jwt-public-keys/current')?.Type).toBe('String');
    const published = await new SsmPublicKeyStore('/onair/test/jwt-public-keys', ssm.client).read();
    expect(published).toEqual(await publicKeys(keys));
  });

  it('publishes them for private keys that existed before (a stack from before the public keys)', async () => {
    const ssm = memorySsm();
    const existing = await newSigningKeys();
    for (const which of ['current', 'next'] as const)
      ssm.parameters.set(`/onair/test/jwt-signing-key/${which}`, {
        Value: JSON.stringify(existing[which]),
        Type: 'SecureString',
      });
    await new SsmKeyStore('/onair/test/jwt-signing-key', ssm.client).createIfAbsent(await newSigningKeys());
    const published = await new SsmPublicKeyStore('/onair/test/jwt-public-keys', ssm.client).read();
    expect(published?.current.kid).toBe(existing.current.kid);
  });

  it('publishes the rotated keys, so verifiers accept what the new current key signs', async () => {
    const ssm = memorySsm();
    const store = new SsmKeyStore('/onair/test/jwt-signing-key', ssm.client);
    await store.createIfAbsent(await newSigningKeys());
    const { keys } = await rotateSigningKeys(store);
    const { token } = await (await TokenService.fromKeys(keys)).issue(principal, 3600);
    const published = await new SsmPublicKeyStore('/onair/test/jwt-public-keys', ssm.client).read();
    const verifier = await TokenService.fromKeys(published!);
    await expect(verifier.authenticate(`Bearer ${token}`, 'test')).resolves.toMatchObject({ tenant: 'acme' });
  });

  it('refuses to publish a private key as a public one', async () => {
    const ssm = memorySsm();
    const store = new SsmPublicKeyStore('/onair/test/jwt-public-keys', ssm.client);
    await expect(store.write(await newSigningKeys())).rejects.toThrow(/private key/);
    expect(ssm.parameters.size).toBe(0);
  });
});
