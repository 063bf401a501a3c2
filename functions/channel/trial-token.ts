/**
 * Trial tokens for the test environment: a fresh tenant limited to TRIAL_MAX_CHANNELS channels, valid
 * TRIAL_LIFETIME_DAYS, issued at most so often per source address and per email (config.tokenLimits).
 */

import {
  newTrialTenant,
  type Principal,
  TRIAL_LIFETIME_DAYS,
  TRIAL_MAX_CHANNELS,
} from '../../core/auth/tokens';
import { logger } from '../../core/logger';
import type { ChannelConfig } from './config';
import type { ChannelDeps } from './deps';
import type { RateLimit } from './stores/rate-limit-store';

export interface TrialTokenRequest {
  company: string;
  email: string;
}

export interface TrialToken {
  token: string;
  expiresAt: string;
  tenant: string;
  environment: 'test';
  maxChannels: number;
}

export type TrialTokenRefusal =
  | { ok: false; reason: 'rate_limited'; scope: string; retryAfterSeconds: number }
  | { ok: false; reason: 'test_stage_only' };

export type TrialTokenOutcome = { ok: true; token: TrialToken } | TrialTokenRefusal;

/** The limits one request counts against, each with the key it is counted under, in order. */
export function trialTokenLimits(
  limits: ChannelConfig['tokenLimits'],
  req: TrialTokenRequest,
  sourceIp: string,
): { rule: RateLimit; key: string }[] {
  return [
    { rule: { scope: 'token-ip', limit: limits.perSourceIpPerHour, windowSeconds: 3600 }, key: sourceIp },
    {
      rule: { scope: 'token-email', limit: limits.perEmailPerDay, windowSeconds: 86_400 },
      key: req.email.toLowerCase(),
    },
  ];
}

export async function issueTrialToken(
  deps: Pick<ChannelDeps, 'config' | 'rateLimits' | 'tokens' | 'now'>,
  req: TrialTokenRequest,
  sourceIp: string,
): Promise<TrialTokenOutcome> {
  if (deps.config.stage !== 'test') return { ok: false, reason: 'test_stage_only' };
  for (const { rule, key } of trialTokenLimits(deps.config.tokenLimits, req, sourceIp)) {
    const hit = await deps.rateLimits.hit(rule, key, deps.now());
    if (!hit.ok)
      return {
        ok: false,
        reason: 'rate_limited',
        scope: rule.scope,
        retryAfterSeconds: hit.retryAfterSeconds,
      };
  }
  const principal: Principal = {
    tenant: newTrialTenant(),
    env: 'test',
    plan: 'trial',
    maxChannels: TRIAL_MAX_CHANNELS,
  };
  const issued = await deps.tokens.issue(principal, TRIAL_LIFETIME_DAYS * 86_400, { company: req.company });
  logger.info('trial token issued', { tenant: principal.tenant });
  return {
    ok: true,
    token: { ...issued, tenant: principal.tenant, environment: 'test', maxChannels: principal.maxChannels },
  };
}
