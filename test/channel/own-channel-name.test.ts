/**
 * Channel ids are `<prefix>-<name>` (the contract's form), the prefix naming the tenant: a principal can
 * only name its own channels, no two tenants share an id, and ids of the older form `<tenant>.<name>`
 * still name their channel.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../core/auth/tokens';
import { channelId, channelIdSchema, parseChannelId } from '../../functions/channel/channel-id';
import { ownChannelName } from '../../functions/channel/channel-service';

const principal: Principal = { tenant: 'acme', env: 'test', plan: 'trial', maxChannels: 3 };

describe('ownChannelName', () => {
  it("reads the name out of the principal's own channel id", () => {
    expect(ownChannelName(principal, 'acme-news-24')).toBe('news-24');
  });

  it("reads the name out of the principal's own channel id of the older form <tenant>.<name>", () => {
    expect(ownChannelName(principal, 'acme.news-24')).toBe('news-24');
  });

  it("knows no name in another tenant's channel id", () => {
    expect(ownChannelName(principal, 'other-news')).toBeUndefined();
    expect(ownChannelName(principal, 'acme_x-news')).toBeUndefined();
    expect(ownChannelName(principal, 'other.news')).toBeUndefined();
    expect(ownChannelName(principal, 'acme-x.news')).toBeUndefined();
  });

  it('knows no name in an id that is only the tenant prefix', () => {
    expect(ownChannelName(principal, 'acme-')).toBeUndefined();
    expect(ownChannelName(principal, 'acme.')).toBeUndefined();
  });
});

describe('channel ids', () => {
  it('are <prefix>-<name>, the prefix being a tenant without hyphens as it is', () => {
    expect(channelId('t3f9a0c21b7', 'news')).toBe('t3f9a0c21b7-news');
  });

  it('differ for tenants and names that a plain hyphen would have joined into one id', () => {
    expect(channelId('acme', 'x-news')).toBe('acme-x-news');
    expect(channelId('acme-x', 'news')).toBe('acme_x-news');
  });

  it('read back as the tenant and name they were made of', () => {
    expect(parseChannelId(channelId('acme-x', 'news'))).toEqual({ tenant: 'acme-x', name: 'news' });
    expect(parseChannelId(channelId('acme', 'x-news'))).toEqual({ tenant: 'acme', name: 'x-news' });
  });

  it('of the older form <tenant>.<name> read back as the same tenant and name', () => {
    expect(parseChannelId('acme-x.news')).toEqual({ tenant: 'acme-x', name: 'news' });
    expect(channelIdSchema.safeParse('acme-x.news').success).toBe(true);
  });

  it.each([
    'acmenews',
    'acme-',
    '-news',
    'acme.',
    '.news',
    'acme.news.x',
    'acme_x.news',
    'ACME-news',
    'acme--news',
    'acme_-news',
    '_acme-news',
    'acme-x_y',
    `acme-${'n'.repeat(64)}`,
    'acme-news%2F..',
  ])('are not parsed from the malformed %s', (id) => {
    expect(parseChannelId(id)).toBeUndefined();
    expect(channelIdSchema.safeParse(id).success).toBe(false);
  });
});
