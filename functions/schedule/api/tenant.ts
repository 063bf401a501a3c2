/**
 * With tokens (SCHEDULE_REQUIRE_AUTH=true) the tenant of a request is the token's subject and the Host
 * header plays no part (requestTenant). In the open local mode (no tokens) the tenant is `<schedule_host>`: the host:port it was sent to (docs/schedule-api.md), so each
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
  return checkTenant(req.host, 'host');
}

/**
 * A tenant named by a Host header or a `?tenant=` query: a host name or address (local mode) or a
 * token subject (which is also a valid DNS label), lower-cased.
 */
export function checkTenant(raw: string, field: 'host' | 'tenant'): string {
  const what = field === 'host' ? 'the Host header' : 'tenant';
  const host = raw.trim().toLowerCase();
  if (host === '') throw badRequest(`${what} is required: the tenant is ${RULE}`, field);
  if (host.length > MAX_TENANT_LENGTH)
    throw badRequest(`${what} is longer than ${MAX_TENANT_LENGTH} characters`, field);
  const match = HOST.exec(host);
  if (!match || Number(match[1] ?? 1) > 65_535) throw badRequest(`${what} must be ${RULE}`, field);
  return host;
}

/** The rule: a verified token's subject when there is one (tokens required), else the Host's. */
export function requestTenant(req: Pick<ApiRequest, 'host'>, caller: { tenant: string } | undefined): string {
  return caller ? caller.tenant : tenantOf(req);
}

/** The tenant for a body: the request's; a body naming another one is refused. */
export function bodyTenant(tenant: string, claimed: string | undefined): string {
  if (claimed !== undefined && claimed.trim().toLowerCase() !== tenant) {
    throw badRequest(`tenant must be the request's tenant (${tenant})`, 'tenant');
  }
  return tenant;
}
