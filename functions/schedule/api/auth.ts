/**
 * Authentication of the schedule API. Schedule requests need no credentials by default (local quick
 * start); with SCHEDULE_REQUIRE_AUTH=true (set by the CDK deployment)
 * every request must carry `x-jwt: Bearer <token>` and the injected verifier (the channel
 * service's token check) decides. The tenant stays the host the request was sent to.
 */

import type { TokenVerifier } from '../../../core/auth/token-verifier';
import { ConfigError } from '../../../core/env';
import { HttpError, unauthorized } from '../../../core/errors';
import type { ApiRequest } from '../../../core/http';
import { logger } from '../../../core/logger';

/** Resolves when the request may proceed; throws an HttpError otherwise. */
export type Authenticate = (req: ApiRequest) => Promise<void>;

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
    try {
      await verifyToken(header, req);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      logger.warn('schedule token verification failed', { err, requestId: req.requestId });
      throw unauthorized();
    }
  };
}
