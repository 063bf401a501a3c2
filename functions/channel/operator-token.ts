/** Operator-issued tokens (`npm run token`): a named tenant, a channel limit, one environment. */

import { AUTOABR_SCOPE } from '../../core/auth/scopes';
import { type KeyStore, keyStoreFromEnv, loadSigningKeys } from '../../core/auth/signing-key';
import { type Environment, type IssuedToken, TENANT_ID, TokenService } from '../../core/auth/tokens';

export interface OperatorTokenRequest {
  tenant: string;
  maxChannels: number;
  env: Environment;
  days: number;
  /** Whether the token may use the AutoABR API (the `autoabr` scope). */
  autoabr?: boolean;
}

/** What is wrong with a request, field by field; empty when it can be issued. */
export function operatorTokenProblems(req: OperatorTokenRequest): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!TENANT_ID.test(req.tenant))
    problems.push({ field: 'tenant', message: 'must be 1-32 lowercase letters, digits or hyphens' });
  if (!Number.isInteger(req.maxChannels) || req.maxChannels < 1)
    problems.push({ field: 'maxChannels', message: 'must be a positive integer' });
  if (!Number.isInteger(req.days) || req.days < 1 || req.days > 3650)
    problems.push({ field: 'days', message: 'must be 1..3650' });
  return problems;
}

/** Signs with the deployment's key (JWT_KEY_PARAMETER / JWT_KEY_FILE unless given). */
export async function issueOperatorToken(
  req: OperatorTokenRequest,
  keyStore: KeyStore = keyStoreFromEnv(),
): Promise<IssuedToken> {
  const problems = operatorTokenProblems(req);
  if (problems.length > 0)
    throw new Error(
      `invalid operator token request: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    );
  const tokens = await TokenService.fromKeys(await loadSigningKeys(keyStore));
  return tokens.issue(
    { tenant: req.tenant, env: req.env, plan: 'operator', maxChannels: req.maxChannels },
    req.days * 86_400,
    req.autoabr ? { scope: AUTOABR_SCOPE } : {},
  );
}
