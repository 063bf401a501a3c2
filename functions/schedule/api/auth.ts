/**
 * Authentication of the schedule API. Schedule requests need no credentials by default (local quick
 * start); with SCHEDULE_REQUIRE_AUTH=true (set by the CDK deployment)
 * every request must carry `x-jwt: Bearer <token>` and the injected verifier (the channel
 * service's token check) decides. With tokens the tenant is the token's subject (never the Host
 * header); a token whose `scope` claim holds `schedule:read-all` (the engine's service token, minted
 * only by the engine host or an operator, never by POST /token) may also read every tenant's channels
 * and schedules. Without tokens (local mode) the tenant is the request's Host (tenant.ts).
 */

import type { TokenVerifier } from '../../../core/auth/token-verifier';
import { ConfigError } from '../../../core/env';
import { HttpError, unauthorized } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';
import { logger } from '../../../core/logger';

/** Who a verified token speaks for. */
export interface Caller {
  tenant: string;
  /** The `schedule:read-all` scope: may read the channels and schedules of every tenant. */
  readAll: boolean;
}

export const READ_ALL_SCOPE = 'schedule:read-all';

/**
 * Resolves with the token's caller when tokens are required, undefined in the open local mode;
 * throws an HttpError when the request may not proceed.
 */
export type Authenticate = (req: ApiRequest) => Promise<Caller | undefined>;

/** The caller of a verifier's answer (a Principal, plus `scopes` when the token has any). */
export function callerOf(verified: unknown): Caller | undefined {
  if (typeof verified !== 'object' || verified === null) return undefined;
  const { tenant, scopes } = verified as { tenant?: unknown; scopes?: unknown };
  if (typeof tenant !== 'string' || tenant === '') return undefined;
  const readAll = Array.isArray(scopes) && scopes.includes(READ_ALL_SCOPE);
  return { tenant, readAll };
}

export interface AuthenticatorOptions {
  required: boolean;
  verifyToken?: TokenVerifier;
}

export function createAuthenticator({ required, verifyToken }: AuthenticatorOptions): Authenticate {
  if (!required) return async () => undefined;
  if (!verifyToken)
    throw new ConfigError('SCHEDULE_REQUIRE_AUTH is true but no token verifier is configured');
  return async (req) => {
    const header = req.headers['x-jwt'];
    if (!header) throw unauthorized('x-jwt header must be "Bearer <token>"');
    let verified: unknown;
    try {
      verified = await verifyToken(header, req);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      logger.warn('schedule token verification failed', { err, requestId: req.requestId });
      throw unauthorized();
    }
    const caller = callerOf(verified);
    // A verifier that names no tenant cannot scope the request: refused, never the Host's tenant.
    if (!caller) throw unauthorized('the token names no tenant');
    return caller;
  };
}
