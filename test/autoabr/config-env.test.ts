import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/env';
import { cloudEnvChanges } from '../../functions/autoabr/config/cloud-config';
import { loadDotEnv, parseDotEnv } from '../../functions/autoabr/config/dotenv';

describe('.env files', () => {
  it('reads KEY=value lines, quotes, export and comments', () => {
    const vars = parseDotEnv(
      [
        '# comment',
        'export CLOUD_REGION=eu-north-1',
        'A="two words"',
        "B='x # y'",
        'C=plain # trailing',
        'bad line',
      ].join('\n'),
    );
    expect(vars).toEqual({ CLOUD_REGION: 'eu-north-1', A: 'two words', B: 'x # y', C: 'plain' });
  });

  it('never overrides a variable that is already set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'autoabr-env-'));
    try {
      await writeFile(join(dir, '.env'), 'CLOUD_REGION=from-file\nCLOUD_ACCESS_KEY_ID=file-key\n');
      const env: Record<string, string | undefined> = { CLOUD_REGION: 'from-env' };
      expect(loadDotEnv(join(dir, '.env'), env)).toEqual(['CLOUD_ACCESS_KEY_ID']);
      expect(env).toEqual({ CLOUD_REGION: 'from-env', CLOUD_ACCESS_KEY_ID: 'file-key' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is optional', () => {
    expect(loadDotEnv('/nonexistent/.env', {})).toEqual([]);
  });
});

describe('cloud credentials settings', () => {
  it('uses CLOUD_* keys when LOAD_CREDENTIALS_FROM_ENV is true', () => {
    expect(
      cloudEnvChanges({
        LOAD_CREDENTIALS_FROM_ENV: 'true',
        CLOUD_ACCESS_KEY_ID: 'AKIA1',
        CLOUD_SECRET_ACCESS_KEY: 'secret',
        CLOUD_REGION: 'eu-west-1',
        AWS_SESSION_TOKEN: 'stale',
      }),
    ).toEqual({
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIA1',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: undefined,
    });
  });

  it('fails at start when LOAD_CREDENTIALS_FROM_ENV is true without the keys', () => {
    expect(() => cloudEnvChanges({ LOAD_CREDENTIALS_FROM_ENV: 'true' })).toThrow(ConfigError);
  });

  it('clears environment keys so the shared credentials file is used when it is false', () => {
    expect(cloudEnvChanges({ LOAD_CREDENTIALS_FROM_ENV: 'false', AWS_ACCESS_KEY_ID: 'x' })).toEqual({
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_SESSION_TOKEN: undefined,
    });
  });

  it('keeps the role credentials in Lambda even when it is false', () => {
    expect(cloudEnvChanges({ LOAD_CREDENTIALS_FROM_ENV: 'false', AWS_LAMBDA_FUNCTION_NAME: 'api' })).toEqual(
      {},
    );
  });

  it('keeps the local cloud’s credentials even when it is false', () => {
    expect(
      cloudEnvChanges({
        LOAD_CREDENTIALS_FROM_ENV: 'false',
        AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566',
        AWS_ACCESS_KEY_ID: 'local',
      }),
    ).toEqual({});
  });

  it('leaves everything to the SDK when unset, and never overrides AWS_REGION', () => {
    expect(cloudEnvChanges({ CLOUD_REGION: 'eu-west-1', AWS_REGION: 'us-east-1' })).toEqual({});
  });
});
