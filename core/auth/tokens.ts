/**
 * Channel-service tokens: ES256 JWTs signed with the deployment's current key (signing-key.ts) and
 * verified against its current and next keys. Claims: iss "onair", aud "onair-channel-api", sub =
 * tenant, `env` (test | prod: the only environment the token works in), `plan` (trial | operator),
 * `maxChannels`, iat, exp. The header carries the key id (the JWK thumbprint); both keys are published
 * at /.well-known/jwks.json.
 */
import { randomBytes } from 'node:crypto';
import { type JWK, jwtVerify, SignJWT } from 'jose';
import { forbidden, unauthorized } from '../errors';
import { type KeyRing, keyRing, refreshingKeyRing } from './key-ring';
import { parseScopes } from './scopes';
import type { SigningKeys } from './signing-key';

export const ISSUER = 'onair';
export const AUDIENCE = 'onair-channel-api';
export const TRIAL_MAX_CHANNELS = 3;
export const TRIAL_LIFETIME_DAYS = 30;

export type Environment = 'test' | 'prod';
export type Plan = 'trial' | 'operator';

export interface Principal {
  tenant: string;
  env: Environment;
  plan: Plan;
  maxChannels: number;
  /** Extra permissions from the `scope` claim (scopes.ts); absent when the token carries none. */
  scopes?: string[];
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
}

/**
 * Tenant ids are embedded in channel ids `<prefix>-<name>` (functions/channel/channel-id.ts): keep them
 * short, URL-safe, and free of dots and underscores.
 */
export const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$|^[a-z0-9]$/;

export const newTrialTenant = (): string => `t${randomBytes(5).toString('hex')}`;

export class TokenService {
  private constructor(
    private readonly ring: () => Promise<KeyRing>,
    private readonly now: () => number,
  ) {}

  /** Fixed keys, never reloaded (a one-off command, a test). `now` (ms) dates and judges tokens. */
  static async fromKeys(keys: SigningKeys, now: () => number = Date.now): Promise<TokenService> {
    const ring = await keyRing(keys);
    return new TokenService(async () => ring, now);
  }

  /** One key that both signs and verifies. */
  static fromJwk(privateJwk: JWK, now: () => number = Date.now): Promise<TokenService> {
    return TokenService.fromKeys({ current: privateJwk }, now);
  }

  /**
   * Keys loaded now (a failure is thrown here) and reloaded every few minutes, so a long-lived process
   * picks up a rotation (key-ring.ts).
   */
  static async fromSource(
    load: () => Promise<SigningKeys>,
    now: () => number = Date.now,
  ): Promise<TokenService> {
    return new TokenService(await refreshingKeyRing(load), now);
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return (await this.ring()).jwks;
  }

  async issue(
    principal: Principal,
    lifetimeSeconds: number,
    extra: Record<string, string> = {},
  ): Promise<IssuedToken> {
    const { signer } = await this.ring();
    if (!signer) throw new Error('these signing keys are public ones: they verify tokens, never sign them');
    const now = Math.floor(this.now() / 1000);
    const exp = now + lifetimeSeconds;
    const token = await new SignJWT({
      ...extra,
      env: principal.env,
      plan: principal.plan,
      maxChannels: principal.maxChannels,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: signer.kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(principal.tenant)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(signer.key);
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /**
   * Verifies `x-jwt: Bearer <token>` for the stage this API runs in. 401 for anything not signed by us
   * (missing, malformed, expired, forged, alg none, a retired or unknown key); 403 for a valid token of another
   * environment or a trial token outside the test environment.
   */
  async authenticate(header: string | undefined, stage: Environment): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
    if (!match) throw unauthorized('x-jwt header must be "Bearer <token>"');
    const { verifier } = await this.ring();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(match[1]!, verifier, {
        algorithms: ['ES256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(this.now()),
      }));
    } catch (err) {
      const reason =
        (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'token expired' : 'invalid token';
      throw unauthorized(reason);
    }
    const { sub, env, plan, maxChannels } = payload;
    if (
      typeof sub !== 'string' ||
      !TENANT_ID.test(sub) ||
      (env !== 'test' && env !== 'prod') ||
      (plan !== 'trial' && plan !== 'operator') ||
      typeof maxChannels !== 'number' ||
      !Number.isInteger(maxChannels) ||
      maxChannels < 0
    ) {
      throw unauthorized('invalid token claims');
    }
    if (plan === 'trial' && stage !== 'test') {
      throw forbidden('trial_not_allowed', 'trial tokens work in the test environment only');
    }
    if (env !== stage) throw forbidden('wrong_environment', `this token is for the ${env} environment`);
    const scopes = parseScopes(payload.scope);
    return { tenant: sub, env, plan, maxChannels, ...(scopes.length ? { scopes } : {}) };
  }
}
