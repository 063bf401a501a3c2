/**
 * The tenant of a request is `<schedule_host>`: the host:port it was sent to (docs/schedule-api.md), so each
 * host name a deployment answers on sees only its own channels and feeds. The Host header is checked
 * before it becomes a DynamoDB key: a DNS name, an IPv4 address or a bracketed IPv6 address, with an
 * optional port, at most 255 characters. Anything else (empty, over-long, spaces, control characters,
 * `/`, `#`) is a 400 naming `host`, never a key DynamoDB refuses.
 */
import { badRequest } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';

export const MAX_TENANT_LENGTH = 255;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]{2,45}\\])(?::(\\d{1,5}))?$`);
const RULE = 'a host name or IP address with an optional port, as in schedule.example.com:8090';

/** Host names are case-insensitive: one tenant whatever the client's spelling. */
export function tenantOf(req: Pick<ApiRequest, 'host'>): string {
  const host = req.host.trim().toLowerCase();
  if (host === '') throw badRequest(`the Host header is required: the tenant is ${RULE}`, 'host');
  if (host.length > MAX_TENANT_LENGTH)
    throw badRequest(`the Host header is longer than ${MAX_TENANT_LENGTH} characters`, 'host');
  const match = HOST.exec(host);
  if (!match || Number(match[1] ?? 1) > 65_535) throw badRequest(`the Host header must be ${RULE}`, 'host');
  return host;
}

/** The tenant for a body: the request's; a body naming another one is refused. */
export function bodyTenant(req: Pick<ApiRequest, 'host'>, claimed: string | undefined): string {
  const tenant = tenantOf(req);
  if (claimed !== undefined && claimed.trim().toLowerCase() !== tenant) {
    throw badRequest(`tenant must be the host this API was called on (${tenant})`, 'tenant');
  }
  return tenant;
}
