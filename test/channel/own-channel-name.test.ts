/** Channel ids are `<tenant>.<name>`: a principal can only name its own channels, and no two tenants share an id. */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../core/auth/tokens';
import { channelId, parseChannelId } from '../../functions/channel/channel-id';
import { ownChannelName } from '../../functions/channel/channel-service';

const principal: Principal = { tenant: 'acme', env: 'test', plan: 'trial', maxChannels: 3 };

describe('ownChannelName', () => {
  it("reads the name out of the principal's own channel id", () => {
    expect(ownChannelName(principal, 'acme.news-24')).toBe('news-24');
  });

  it("knows no name in another tenant's channel id", () => {
    expect(ownChannelName(principal, 'other.news')).toBeUndefined();
    expect(ownChannelName(principal, 'acme-x.news')).toBeUndefined();
  });

  it('knows no name in an id that is only the tenant prefix', () => {
    expect(ownChannelName(principal, 'acme.')).toBeUndefined();
  });
});

describe('channel ids', () => {
  it('differ for tenants and names that a hyphen would have joined into one id', () => {
    expect(channelId('acme', 'x-news')).not.toBe(channelId('acme-x', 'news'));
  });

  it('read back as the tenant and name they were made of', () => {
    expect(parseChannelId(channelId('acme-x', 'news'))).toEqual({ tenant: 'acme-x', name: 'news' });
  });

  it.each([
    'acme-news',
    'acme.',
    '.news',
    'acme.news.x',
    'ACME.news',
    'acme.-news',
    `acme.${'n'.repeat(64)}`,
  ])('are not parsed from the malformed %s', (id) => {
    expect(parseChannelId(id)).toBeUndefined();
  });
});
