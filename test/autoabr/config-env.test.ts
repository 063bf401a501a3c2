import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/env';
import { cloudClientSettings } from '../../functions/autoabr/config/cloud-config';
import { defaultModelDir, repoRoot } from '../../functions/autoabr/config/default-paths';
import { loadDotEnv, parseDotEnv } from '../../functions/autoabr/config/dotenv';
import { workerConfigFromEnv } from '../../functions/autoabr/config/service-config';

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
      cloudClientSettings({
        LOAD_CREDENTIALS_FROM_ENV: 'true',
        CLOUD_ACCESS_KEY_ID: 'AKIA1',
        CLOUD_SECRET_ACCESS_KEY: 'secret',
        CLOUD_REGION: 'eu-west-1',
        AWS_SESSION_TOKEN: 'stale',
      }),
    ).toEqual({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' } });
  });

  it('fails at start when LOAD_CREDENTIALS_FROM_ENV is true without the keys', () => {
    expect(() => cloudClientSettings({ LOAD_CREDENTIALS_FROM_ENV: 'true' })).toThrow(ConfigError);
  });

  it('uses the shared credentials file, not environment keys, when it is false', () => {
    expect(cloudClientSettings({ LOAD_CREDENTIALS_FROM_ENV: 'false', AWS_ACCESS_KEY_ID: 'x' })).toEqual({
      profile: 'default',
    });
    expect(cloudClientSettings({ LOAD_CREDENTIALS_FROM_ENV: 'false', AWS_PROFILE: 'media' })).toEqual({
      profile: 'media',
    });
  });

  it('keeps the role credentials in Lambda even when it is false', () => {
    expect(
      cloudClientSettings({ LOAD_CREDENTIALS_FROM_ENV: 'false', AWS_LAMBDA_FUNCTION_NAME: 'api' }),
    ).toEqual({});
  });

  it('keeps the local cloud’s credentials even when it is false', () => {
    expect(
      cloudClientSettings({
        LOAD_CREDENTIALS_FROM_ENV: 'false',
        AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566',
        AWS_ACCESS_KEY_ID: 'local',
      }),
    ).toEqual({});
  });

  it('leaves everything to the SDK when unset, and never overrides AWS_REGION', () => {
    expect(cloudClientSettings({ CLOUD_REGION: 'eu-west-1', AWS_REGION: 'us-east-1' })).toEqual({});
  });
});

describe('worker configuration', () => {
  const env = { QUEUE_AUTOABR_JOBS: 'http://127.0.0.1:1/queue/autoabr-jobs', FFMPEG_PATH: '/usr/bin/ffmpeg' };

  it('scores with the libvmaf 1.x model files kept in the repository by default', async () => {
    const { modelDir } = workerConfigFromEnv(env);
    expect(modelDir).toBe(defaultModelDir());
    expect(modelDir).toBe(join(repoRoot(), 'functions', 'autoabr', 'vmaf-models'));
    for (const file of ['vmaf_v0.6.1.pkl', 'vmaf_v0.6.1.pkl.model', 'vmaf_4k_v0.6.1.pkl', 'LICENSE']) {
      await access(join(modelDir, file));
    }
  });

  it('takes a relative VMAF_MODEL_DIR from the repository root', () => {
    expect(workerConfigFromEnv({ ...env, VMAF_MODEL_DIR: 'models' }).modelDir).toBe(
      join(repoRoot(), 'models'),
    );
  });
});

describe('the API handler', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  it('changes no environment variable when it is imported, whatever AutoABR’s own settings say', async () => {
    Object.assign(process.env, {
      QUEUE_AUTOABR_JOBS: 'http://127.0.0.1:1/queue/autoabr-jobs',
      LOAD_CREDENTIALS_FROM_ENV: 'true',
      CLOUD_ACCESS_KEY_ID: 'AKIA1',
      CLOUD_SECRET_ACCESS_KEY: 'secret',
      CLOUD_REGION: 'eu-west-1',
    });
    const before = { ...process.env };
    const module = await import('../../functions/autoabr/entry/api-handler');
    expect(typeof module.handler).toBe('function');
    expect({ ...process.env }).toEqual(before);
  });
});
