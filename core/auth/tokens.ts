/**
 * Channel-service tokens: ES256 JWTs signed with the deployment's key (signing-key.ts).
 * Claims: iss "onair", aud "onair-channel-api", sub = tenant, `env` (test | prod: the only environment
 * the token works in), `plan` (trial | operator), `maxChannels`, iat, exp. The header carries the key id
 * (the JWK thumbprint) published at /.well-known/jwks.json.
 */
import { randomBytes } from 'node:crypto';
import { type CryptoKey, calculateJwkThumbprint, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import { forbidden, unauthorized } from '../errors';

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
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
}

/** Tenant ids are embedded in channel ids `<tenant>.<name>`: keep them short, URL-safe and dot-free. */
export const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$|^[a-z0-9]$/;

export const newTrialTenant = (): string => `t${randomBytes(5).toString('hex')}`;

export class TokenService {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly now: () => number,
  ) {}

  /** `now` (ms since the epoch) dates issued tokens and judges their expiry. */
  static async fromJwk(privateJwk: JWK, now: () => number = Date.now): Promise<TokenService> {
    const { d: _d, ...pub } = privateJwk;
    const kid = await calculateJwkThumbprint(pub);
    const publicJwk: JWK = { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, alg: 'ES256', use: 'sig', kid };
    const privateKey = (await importJWK(privateJwk, 'ES256')) as CryptoKey;
    const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey;
    return new TokenService(privateKey, publicKey, publicJwk, now);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async issue(
    principal: Principal,
    lifetimeSeconds: number,
    extra: Record<string, string> = {},
  ): Promise<IssuedToken> {
    const now = Math.floor(this.now() / 1000);
    const exp = now + lifetimeSeconds;
    const token = await new SignJWT({
      ...extra,
      env: principal.env,
      plan: principal.plan,
      maxChannels: principal.maxChannels,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: this.publicJwk.kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(principal.tenant)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /**
   * Verifies `x-jwt: Bearer <token>` for the stage this API runs in. 401 for anything not signed by us
   * (missing, malformed, expired, forged, alg none, another key); 403 for a valid token of another
   * environment or a trial token outside the test environment.
   */
  async authenticate(header: string | undefined, stage: Environment): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
    if (!match) throw unauthorized('x-jwt header must be "Bearer <token>"');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(match[1]!, this.publicKey, {
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
    return { tenant: sub, env, plan, maxChannels };
  }
}
