/** Operator-issued tokens (`npm run token`): a named tenant, a channel limit, one environment. */

import { keyStoreFromEnv, loadOrCreateSigningKey } from '../../core/auth/signing-key';
import { type Environment, type IssuedToken, TENANT_ID, TokenService } from '../../core/auth/tokens';
import { badRequest } from '../../core/errors';

export interface OperatorTokenRequest {
  tenant: string;
  maxChannels: number;
  env: Environment;
  days: number;
}

export async function issueOperatorToken(req: OperatorTokenRequest): Promise<IssuedToken> {
  if (!TENANT_ID.test(req.tenant))
    throw badRequest('tenant must be 1-32 lowercase letters, digits or hyphens', 'tenant');
  if (!Number.isInteger(req.maxChannels) || req.maxChannels < 1)
    throw badRequest('must be a positive integer', 'maxChannels');
  if (!Number.isInteger(req.days) || req.days < 1 || req.days > 3650)
    throw badRequest('must be 1..3650', 'days');
  const tokens = await TokenService.fromJwk(await loadOrCreateSigningKey(keyStoreFromEnv()));
  return tokens.issue(
    { tenant: req.tenant, env: req.env, plan: 'operator', maxChannels: req.maxChannels },
    req.days * 86_400,
  );
}
