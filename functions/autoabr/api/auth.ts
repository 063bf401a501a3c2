/**
 * Authentication of the AutoABR API. Locally (AUTOABR_REQUIRE_AUTH unset) requests need no
 * credentials and every job belongs to one implicit tenant. With AUTOABR_REQUIRE_AUTH=true (set by the
 * CDK deployment) every route but the health check needs `x-jwt: Bearer <token>`, verified with the
 * channel service's keys: missing or invalid -> 401; a valid token without the `autoabr` scope (every
 * trial token, an operator token issued without `--autoabr`) -> 403. The token's subject is the tenant
 * the request acts for (docs/autoabr-api.md, "Authentication and tenants").
 */
import { AUTOABR_SCOPE } from '../../../core/auth/scopes';
import type { TokenVerifier } from '../../../core/auth/token-verifier';
import type { Principal } from '../../../core/auth/tokens';
import { ConfigError } from '../../../core/env';
import { forbidden, HttpError, unauthorized } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';
import type { Logger } from '../../../core/logger';

/** The tenant the request acts for; undefined when auth is off (the one implicit local tenant). */
export type AuthenticateCaller = (req: ApiRequest) => Promise<string | undefined>;

export interface AutoabrAuthOptions {
  required: boolean;
  verifyToken?: TokenVerifier;
  log?: Logger;
}

/** Whether a verified principal may use AutoABR: an operator token carrying the `autoabr` scope. */
export const mayUseAutoabr = (p: Pick<Principal, 'plan' | 'scopes'>): boolean =>
  p.plan === 'operator' && (p.scopes ?? []).includes(AUTOABR_SCOPE);

export function createAutoabrAuth({ required, verifyToken, log }: AutoabrAuthOptions): AuthenticateCaller {
  if (!required) return async () => undefined;
  if (!verifyToken) throw new ConfigError('AUTOABR_REQUIRE_AUTH is true but no token verifier is configured');
  return async (req) => {
    const header = req.headers['x-jwt'];
    if (!header) throw unauthorized('x-jwt header must be "Bearer <token>"');
    let principal: Principal;
    try {
      principal = (await verifyToken(header, req)) as Principal;
    } catch (err) {
      if (err instanceof HttpError) throw err;
      log?.warn('autoabr token verification failed', { err, requestId: req.requestId });
      throw unauthorized();
    }
    if (!principal || typeof principal.tenant !== 'string') throw unauthorized();
    if (!mayUseAutoabr(principal))
      throw forbidden('autoabr_not_allowed', 'this token does not carry the autoabr scope');
    return principal.tenant;
  };
}
