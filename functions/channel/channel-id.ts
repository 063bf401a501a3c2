/**
 * A channel-service channel id is `<prefix>-<name>`, the contract's form. The prefix is the tenant with
 * each hyphen written as `_` (tenants follow TENANT_ID: lowercase letters, digits and hyphens; a trial
 * tenant `t3f9a0c21b7` is its own prefix), so the prefix holds no hyphen and the id splits back at its
 * first one: `acme` + `x-news` is `acme-x-news` and `acme-x` + `news` is `acme_x-news`, never the same
 * id. Ids of the form before, `<tenant>.<name>`, still name their channel (reads and deletes): they hold
 * a dot, which neither a prefix nor a name can, so the two forms never meet. The engine plays a channel
 * under its name alone (engine-container/host/channel-table-manager.ts), so the id never appears in a
 * playback URL.
 */
import { z } from 'zod';
import { TENANT_ID } from '../../core/auth/tokens';
import { CHANNEL_NAME } from './channel-schema';

export const CHANNEL_ID_SEPARATOR = '-';
/** The separator of the ids made before the contract's form, still read. */
const LEGACY_SEPARATOR = '.';

const prefixOf = (tenant: string): string => tenant.replaceAll('-', '_');
const tenantOf = (prefix: string): string => prefix.replaceAll('_', '-');

export const channelId = (tenant: string, name: string): string =>
  `${prefixOf(tenant)}${CHANNEL_ID_SEPARATOR}${name}`;

/** Splits at the first separator: a prefix holds no hyphen, a name may. */
function split(id: string, separator: string): { tenant: string; name: string } | undefined {
  const at = id.indexOf(separator);
  if (at < 0) return undefined;
  const head = id.slice(0, at);
  const name = id.slice(at + 1);
  const tenant = separator === CHANNEL_ID_SEPARATOR ? tenantOf(head) : head;
  return TENANT_ID.test(tenant) && CHANNEL_NAME.test(name) ? { tenant, name } : undefined;
}

/** The tenant and name of a well-formed channel id (`<prefix>-<name>`, or the older `<tenant>.<name>`). */
export function parseChannelId(id: string): { tenant: string; name: string } | undefined {
  return id.includes(LEGACY_SEPARATOR) ? split(id, LEGACY_SEPARATOR) : split(id, CHANNEL_ID_SEPARATOR);
}

/** The `{id}` of `/channel/{id}`: checked before it reaches a store. */
export const channelIdSchema = z
  .string()
  .refine(
    (id) => parseChannelId(id) !== undefined,
    'must be a channel id <prefix>-<name>, as POST /channel and GET /channel return it',
  );
