/** Channel ids are `<tenant>-<name>`: a principal can only name its own channels. */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../core/auth/tokens';
import { ownChannelName } from '../../functions/channel/channel-service';

const principal: Principal = { tenant: 'acme', env: 'test', plan: 'trial', maxChannels: 3 };

describe('ownChannelName', () => {
  it("reads the name out of the principal's own channel id", () => {
    expect(ownChannelName(principal, 'acme-news-24')).toBe('news-24');
  });

  it("knows no name in another tenant's channel id", () => {
    expect(ownChannelName(principal, 'other-news')).toBeUndefined();
  });

  it('knows no name in an id that is only the tenant prefix', () => {
    expect(ownChannelName(principal, 'acme-')).toBeUndefined();
  });
});
