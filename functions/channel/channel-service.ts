/** The channel service's behaviour, independent of HTTP: what a create, list, delete and token request do. */

import {
  newTrialTenant,
  type Principal,
  type TokenService,
  TRIAL_LIFETIME_DAYS,
  TRIAL_MAX_CHANNELS,
} from '../../core/auth/tokens';
import { badRequest, notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import type { ChannelEvent, ChannelEvents } from './channel-events';
import type { CreateChannelRequest } from './channel-schema';
import type { Channel, ChannelStore } from './channel-store';
import type { ChannelConfig } from './config';
import type { RateLimiter } from './rate-limiter';

export interface ChannelServiceDeps {
  config: ChannelConfig;
  store: ChannelStore;
  events: ChannelEvents;
  tokens: TokenService;
  rateLimiter: RateLimiter;
}

export const playbackUrl = (base: string, name: string) => `${base}/channels/${name}/master.m3u8`;

export function createView(channel: Channel, base: string) {
  const { id, name, type, url, opts } = channel;
  return { id, name, type, url, ...(opts ? { opts } : {}), playback: playbackUrl(base, name) };
}

export function listView(channel: Channel, base: string) {
  return { id: channel.id, name: channel.name, type: channel.type, url: playbackUrl(base, channel.name) };
}

const channelEvent = (type: ChannelEvent['type'], c: Channel): ChannelEvent => ({
  type,
  channelId: c.id,
  name: c.name,
  tenant: c.tenant,
  at: new Date().toISOString(),
});

export class ChannelService {
  constructor(private readonly deps: ChannelServiceDeps) {}

  async create(principal: Principal, req: CreateChannelRequest) {
    const channel: Channel = {
      id: `${principal.tenant}-${req.name}`,
      tenant: principal.tenant,
      name: req.name,
      type: req.type,
      url: req.url,
      ...(req.opts?.preroll ? { opts: { preroll: req.opts.preroll } } : {}),
      createdAt: Date.now(),
    };
    await this.deps.store.create(channel, principal.maxChannels);
    try {
      await this.deps.events.publish(channelEvent('channel.created', channel));
    } catch (err) {
      // A channel the fleet never hears of would not be sized for: undo, so a failed create leaves nothing.
      logger.error('channel event not published; rolling back create', { err, channelId: channel.id });
      await this.deps.store.delete(channel.tenant, channel.name);
      throw err;
    }
    logger.info('channel created', { channelId: channel.id, type: channel.type });
    return createView(channel, this.deps.config.playbackBaseUrl);
  }

  async list(principal: Principal) {
    const channels = await this.deps.store.listByTenant(principal.tenant);
    return channels.map((c) => listView(c, this.deps.config.playbackBaseUrl));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const prefix = `${principal.tenant}-`;
    if (!id.startsWith(prefix) || id.length === prefix.length) {
      throw notFound(`no channel ${id}`);
    }
    const removed = await this.deps.store.delete(principal.tenant, id.slice(prefix.length));
    try {
      await this.deps.events.publish(channelEvent('channel.deleted', removed));
    } catch (err) {
      // The engine fleet reads the table itself; the event only resizes it, so a lost one is logged, not fatal.
      logger.error('channel.deleted event not published', { err, channelId: removed.id });
    }
    logger.info('channel deleted', { channelId: removed.id });
  }

  /** A trial token for the test environment: a fresh tenant limited to TRIAL_MAX_CHANNELS channels. */
  async issueTrialToken(body: { company: string; email: string }, sourceIp: string) {
    if (this.deps.config.stage !== 'test')
      throw badRequest('trial tokens exist in the test environment only');
    const { limiter, limits } = { limiter: this.deps.rateLimiter, limits: this.deps.config.tokenLimits };
    await limiter.hit({ scope: 'token-ip', limit: limits.perSourceIpPerHour, windowSeconds: 3600 }, sourceIp);
    await limiter.hit(
      { scope: 'token-email', limit: limits.perEmailPerDay, windowSeconds: 86_400 },
      body.email.toLowerCase(),
    );
    const principal: Principal = {
      tenant: newTrialTenant(),
      env: 'test',
      plan: 'trial',
      maxChannels: TRIAL_MAX_CHANNELS,
    };
    const issued = await this.deps.tokens.issue(principal, TRIAL_LIFETIME_DAYS * 86_400, {
      company: body.company,
    });
    logger.info('trial token issued', { tenant: principal.tenant });
    return {
      ...issued,
      tenant: principal.tenant,
      environment: principal.env,
      maxChannels: principal.maxChannels,
    };
  }
}
