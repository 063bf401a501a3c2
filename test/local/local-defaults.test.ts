import { describe, expect, it } from 'vitest';
import { localDefaults } from '../../local/system';

describe('the local runner configuration', () => {
  it('keeps a variable the launch environment sets over the local default', () => {
    const launch = { PLAYBACK_BASE_URL: 'https://cdn.example', ONAIR_STAGE: 'prod' };
    expect(
      localDefaults(
        { PLAYBACK_BASE_URL: 'http://localhost:8000', ONAIR_STAGE: 'test', JWT_KEY_FILE: '/k' },
        launch,
      ),
    ).toEqual({ JWT_KEY_FILE: '/k' });
  });

  it('applies every default the launch environment leaves unset', () => {
    expect(localDefaults({ ONAIR_STAGE: 'test' }, {})).toEqual({ ONAIR_STAGE: 'test' });
  });
});
