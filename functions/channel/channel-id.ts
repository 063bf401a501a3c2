/**
 * A channel-service channel id is `<tenant>.<name>`. Neither part can contain a dot (tenants follow
 * TENANT_ID, names CHANNEL_NAME: lowercase letters, digits and hyphens), so the id names exactly one
 * (tenant, name) pair: `acme` + `x-news` (`acme.x-news`) and `acme-x` + `news` (`acme-x.news`) never meet,
 * as they did when the separator was a hyphen. The engine plays a channel under its name alone
 * (engine-container/host/channel-table-manager.ts), so the id never appears in a playback URL.
 */
import { z } from 'zod';
import { TENANT_ID } from '../../core/auth/tokens';
import { CHANNEL_NAME } from './channel-schema';

export const CHANNEL_ID_SEPARATOR = '.';

export const channelId = (tenant: string, name: string): string => `${tenant}${CHANNEL_ID_SEPARATOR}${name}`;

/** The tenant and name of a well-formed channel id; undefined for anything else. */
export function parseChannelId(id: string): { tenant: string; name: string } | undefined {
  const at = id.indexOf(CHANNEL_ID_SEPARATOR);
  if (at < 0) return undefined;
  const tenant = id.slice(0, at);
  const name = id.slice(at + 1);
  return TENANT_ID.test(tenant) && CHANNEL_NAME.test(name) ? { tenant, name } : undefined;
}

/** The `{id}` of `/channel/{id}`: checked before it reaches a store. */
export const channelIdSchema = z
  .string()
  .refine(
    (id) => parseChannelId(id) !== undefined,
    'must be a channel id <tenant>.<name>, as POST /channel and GET /channel return it',
  );
