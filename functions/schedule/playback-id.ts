/**
 * The engine channel id of a schedule channel: `<tenantKey>~<id>`, where tenantKey is the tenant in
 * base64url (no padding). Two tenants may both have a channel `news`; their engine ids (and so their
 * playback URLs `{playback_host}/channels/<engine id>/master.m3u8`) never collide. `~` is neither in
 * base64url nor in a schedule id, so the id splits back at its first `~`; the channel service's ids
 * (`<prefix>-<name>`) never contain it either.
 */
import { SCHEDULE_ID } from './model';

export const PLAYBACK_ID_SEPARATOR = '~';

export const tenantKey = (tenant: string): string => Buffer.from(tenant, 'utf8').toString('base64url');

export const playbackChannelId = (tenant: string, id: string): string =>
  `${tenantKey(tenant)}${PLAYBACK_ID_SEPARATOR}${id}`;

/** The tenant and schedule id of an engine channel id; undefined when it is not of this form. */
export function parsePlaybackChannelId(engineId: string): { tenant: string; id: string } | undefined {
  const at = engineId.indexOf(PLAYBACK_ID_SEPARATOR);
  if (at < 1) return undefined;
  const key = engineId.slice(0, at);
  const id = engineId.slice(at + 1);
  if (!/^[A-Za-z0-9_-]+$/.test(key) || !SCHEDULE_ID.test(id)) return undefined;
  const tenant = Buffer.from(key, 'base64url').toString('utf8');
  return tenantKey(tenant) === key ? { tenant, id } : undefined;
}

/** `{playback_base}/channels/<engine id>/master.m3u8`. */
export const playbackUrl = (base: string, tenant: string, id: string): string =>
  `${base.replace(/\/+$/, '')}/channels/${playbackChannelId(tenant, id)}/master.m3u8`;
