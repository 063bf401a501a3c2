import { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSigningKeys } from '../../core/auth/signing-key';
import { SsmKeyStore } from '../../core/auth/ssm-key-store';
import type { JsonService } from '../../scripts/rehearse/stand-ins/json-service';
import { generatePassword, startSecretsManager } from '../../scripts/rehearse/stand-ins/secrets-manager';
import { startSsm } from '../../scripts/rehearse/stand-ins/ssm';

describe('the SSM stand-in, through the real SDK client', () => {
  let ssm: JsonService;
  let client: SSMClient;
  beforeAll(async () => {
    ssm = await startSsm({ account: '123456789012', region: 'us-east-1' });
    client = new SSMClient({
      region: 'us-east-1',
      endpoint: ssm.url,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  });
  afterAll(async () => {
    client.destroy();
    await ssm.close();
  });

  it('keeps the first keys created and reads them back, as the signing-key store expects', async () => {
    const store = new SsmKeyStore('/app/keys', client);
    expect(await store.read()).toBeUndefined();
    const first = await newSigningKeys();
    await store.createIfAbsent(first);
    await store.createIfAbsent(await newSigningKeys());
    expect((await store.read())?.current.kid).toBe(first.current.kid);
    expect(ssm.unknown).toEqual([]);
  });
});

describe('the Secrets Manager stand-in', () => {
  it('generates a secret as GenerateSecretString says: length, no punctuation', () => {
    const secret = generatePassword({ PasswordLength: 48, ExcludePunctuation: true });
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('answers GetSecretValue for a known secret and ResourceNotFound otherwise', async () => {
    const service = await startSecretsManager(new Map([['arn:secret:a', 's3cret']]));
    try {
      const get = (SecretId: string) =>
        fetch(service.url, {
          method: 'POST',
          headers: {
            'x-amz-target': 'secretsmanager.GetSecretValue',
            'content-type': 'application/x-amz-json-1.1',
          },
          body: JSON.stringify({ SecretId }),
        });
      expect(await (await get('arn:secret:a')).json()).toMatchObject({ SecretString: 's3cret' });
      const missing = await get('arn:secret:b');
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ __type: 'ResourceNotFoundException' });
    } finally {
      await service.close();
    }
  });
});
