/**
 * The tenant of a request is `<schedule_host>`: the host:port it was sent to (docs/schedule-api.md), so each
 * host name a deployment answers on sees only its own channels and feeds.
 */
import { badRequest } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';

/** Host names are case-insensitive: one tenant whatever the client's spelling. */
export const tenantOf = (req: Pick<ApiRequest, 'host'>): string => req.host.trim().toLowerCase();

/** The tenant for a body: the request's; a body naming another one is refused. */
export function bodyTenant(req: Pick<ApiRequest, 'host'>, claimed: string | undefined): string {
  const tenant = tenantOf(req);
  if (claimed !== undefined && claimed.trim().toLowerCase() !== tenant) {
    throw badRequest(`tenant must be the host this API was called on (${tenant})`, 'tenant');
  }
  return tenant;
}
