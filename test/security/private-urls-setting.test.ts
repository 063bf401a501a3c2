import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/env';
import { allowPrivateUrlsFromEnv } from '../../core/fetch/private-urls-setting';

describe('ALLOW_PRIVATE_URLS', () => {
  it('refuses private URLs when nothing is set (every deployment)', () => {
    expect(allowPrivateUrlsFromEnv({})).toBe(false);
  });

  it('allows them when set to true (npm start)', () => {
    expect(allowPrivateUrlsFromEnv({ ALLOW_PRIVATE_URLS: 'true' })).toBe(true);
  });

  it('honours the deprecated SCHEDULE_BLOCK_PRIVATE_URLS=false as its inverse', () => {
    expect(allowPrivateUrlsFromEnv({ SCHEDULE_BLOCK_PRIVATE_URLS: 'false' })).toBe(true);
    expect(allowPrivateUrlsFromEnv({ SCHEDULE_BLOCK_PRIVATE_URLS: 'true' })).toBe(false);
  });

  it('lets ALLOW_PRIVATE_URLS win over the deprecated setting', () => {
    expect(
      allowPrivateUrlsFromEnv({ ALLOW_PRIVATE_URLS: 'false', SCHEDULE_BLOCK_PRIVATE_URLS: 'false' }),
    ).toBe(false);
  });

  it('fails at start on a value that is not a boolean', () => {
    expect(() => allowPrivateUrlsFromEnv({ ALLOW_PRIVATE_URLS: 'maybe' })).toThrow(ConfigError);
  });
});
