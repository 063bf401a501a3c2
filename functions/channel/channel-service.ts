/**
 * What a channel create, list and delete do, independent of HTTP: each answers an outcome (plain data)
 * and routes.ts decides what it means over HTTP. Only failures nobody can act on are thrown.
 */

import type { Principal } from '../../core/auth/tokens';
import { logger } from '../../core/logger';
import type { PageRequest } from '../../core/paging';
import { channelEvent } from './channel-events';
import { channelId, parseChannelId } from './channel-id';
import type { CreateChannelRequest, PatchChannelRequest } from './channel-schema';
import type { ChannelDeps } from './deps';
import type { Channel } from './model';

type Deps = Pick<ChannelDeps, 'channels' | 'events' | 'now'>;

export type CreateChannelOutcome =
  | { ok: true; channel: Channel }
  | { ok: false; reason: 'name_taken' | 'limit_reached' };

/**
 * The name inside channel id `<prefix>-<name>` (or the older `<tenant>.<name>`) when the id is the
 * principal's; undefined otherwise.
 */
export function ownChannelName(principal: Principal, id: string): string | undefined {
  const parsed = parseChannelId(id);
  return parsed?.tenant === principal.tenant ? parsed.name : undefined;
}

export async function createChannel(
  deps: Deps,
  principal: Principal,
  req: CreateChannelRequest,
): Promise<CreateChannelOutcome> {
  const nowMs = deps.now();
  const channel: Channel = {
    id: channelId(principal.tenant, req.name),
    tenant: principal.tenant,
    name: req.name,
    type: req.type,
    url: req.url,
    ...(req.opts && Object.keys(req.opts).length ? { opts: req.opts } : {}),
    createdAt: nowMs,
  };
  const created = await deps.channels.create(channel, principal.maxChannels);
  if (!created.ok) return created;
  try {
    await deps.events.publish(channelEvent('channel.created', channel, nowMs));
  } catch (err) {
    // A channel the fleet never hears of would not be sized for: undo, so a failed create leaves nothing.
    logger.error('channel event not published; rolling back create', { err, channelId: channel.id });
    await deps.channels.remove(channel.tenant, channel.name);
    throw err;
  }
  logger.info('channel created', { channelId: channel.id, type: channel.type });
  return { ok: true, channel };
}

/** A page of the principal's channels, ordered by name. */
export const listChannels = (deps: Pick<ChannelDeps, 'channels'>, principal: Principal, page: PageRequest) =>
  deps.channels.listByTenant(principal.tenant, page);

/** The removed channel; undefined when the principal has no channel `id`. */
export async function deleteChannel(
  deps: Deps,
  principal: Principal,
  id: string,
): Promise<Channel | undefined> {
  const name = ownChannelName(principal, id);
  if (name === undefined) return undefined;
  const removed = await deps.channels.remove(principal.tenant, name);
  if (!removed) return undefined;
  try {
    await deps.events.publish(channelEvent('channel.deleted', removed, deps.now()));
  } catch (err) {
    // The engine fleet reads the table itself; the event only resizes it, so a lost one is logged, not fatal.
    logger.error('channel.deleted event not published', { err, channelId: removed.id });
  }
  logger.info('channel deleted', { channelId: removed.id });
  return removed;
}

/** The principal's channel `id`; undefined when it has none of that id. */
export async function getChannel(
  deps: Pick<ChannelDeps, 'channels'>,
  principal: Principal,
  id: string,
): Promise<Channel | undefined> {
  const name = ownChannelName(principal, id);
  if (name === undefined) return undefined;
  const channel = await deps.channels.get(name);
  return channel?.tenant === principal.tenant ? channel : undefined;
}

export type UpdateChannelOutcome =
  | { ok: true; channel: Channel }
  | { ok: false; reason: 'no_channel' }
  | { ok: false; reason: 'preroll_on_webhook' };

/** Sets a new source and/or opts on the principal's channel `id` (the engine plays them from its next item). */
export async function updateChannel(
  deps: Pick<ChannelDeps, 'channels'>,
  principal: Principal,
  id: string,
  patch: PatchChannelRequest,
): Promise<UpdateChannelOutcome> {
  const current = await getChannel(deps, principal, id);
  if (!current) return { ok: false, reason: 'no_channel' };
  if (current.type === 'WebHook' && patch.opts?.preroll) return { ok: false, reason: 'preroll_on_webhook' };
  const opts = patch.opts === undefined ? current.opts : patch.opts;
  const updated = await deps.channels.update(current.tenant, current.name, {
    url: patch.url ?? current.url,
    opts: opts && Object.keys(opts).length ? opts : undefined,
  });
  if (!updated) return { ok: false, reason: 'no_channel' };
  logger.info('channel changed', { channelId: updated.id, fields: Object.keys(patch) });
  return { ok: true, channel: updated };
}
