/** The autoabr scope: how the claim is parsed, who may use AutoABR, and the tenant rules of jobs. */
import { describe, expect, it } from 'vitest';
import { AUTOABR_SCOPE, parseScopes, scopeClaim } from '../../core/auth/scopes';
import { newSigningKey } from '../../core/auth/signing-key';
import { type Principal, TokenService } from '../../core/auth/tokens';
import { ConfigError } from '../../core/env';
import { HttpError, unauthorized } from '../../core/errors';
import type { ApiRequest } from '../../core/http';
import { createAutoabrAuth, mayUseAutoabr } from '../../functions/autoabr/api/auth';
import { tenantResultPrefix, visibleTo } from '../../functions/autoabr/domain/job';

const req = (headers: Record<string, string> = {}) => ({ headers, requestId: 'r1' }) as unknown as ApiRequest;
const operator: Principal = { tenant: 'acme', env: 'test', plan: 'operator', maxChannels: 5 };

describe('parseScopes', () => {
  it('reads a space-separated scope claim', () => {
    expect(parseScopes('autoabr')).toEqual(['autoabr']);
    expect(parseScopes('autoabr  other:read')).toEqual(['autoabr', 'other:read']);
    expect(parseScopes('autoabr autoabr')).toEqual(['autoabr']);
  });

  it('reads anything else as no scope at all', () => {
    for (const claim of [
      undefined,
      null,
      42,
      true,
      ['autoabr'],
      { autoabr: true },
      '',
      'AUTOABR',
      'autoabr x!y',
    ]) {
      expect(parseScopes(claim), JSON.stringify(claim)).toEqual([]);
    }
    expect(parseScopes(`autoabr ${'a'.repeat(1100)}`)).toEqual([]);
  });

  it('writes the claim back', () => {
    expect(scopeClaim([AUTOABR_SCOPE])).toBe('autoabr');
    expect(scopeClaim([])).toBeUndefined();
  });
});

describe('tokens carry scopes', () => {
  it('a token issued with the scope authenticates with it; one without has none', async () => {
    const service = await TokenService.fromJwk(await newSigningKey());
    const scoped = await service.issue(operator, 60, { scope: AUTOABR_SCOPE });
    expect(await service.authenticate(`Bearer ${scoped.token}`, 'test')).toEqual({
      ...operator,
      scopes: ['autoabr'],
    });
    const plain = await service.issue(operator, 60);
    expect(await service.authenticate(`Bearer ${plain.token}`, 'test')).toEqual(operator);
  });
});

describe('mayUseAutoabr', () => {
  it('needs an operator token with the autoabr scope', () => {
    expect(mayUseAutoabr({ plan: 'operator', scopes: ['autoabr'] })).toBe(true);
    expect(mayUseAutoabr({ plan: 'operator', scopes: ['other'] })).toBe(false);
    expect(mayUseAutoabr({ plan: 'operator' })).toBe(false);
    expect(mayUseAutoabr({ plan: 'trial', scopes: ['autoabr'] })).toBe(false);
  });
});

describe('createAutoabrAuth', () => {
  it('with auth off, lets everyone in as the implicit tenant', async () => {
    expect(await createAutoabrAuth({ required: false })(req())).toBeUndefined();
  });

  it('with auth on, needs a verifier', () => {
    expect(() => createAutoabrAuth({ required: true })).toThrow(ConfigError);
  });

  it('answers 401 without a token or for a verifier failure, 403 without the scope', async () => {
    const status = (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (err) => (err instanceof HttpError ? err.status : 500),
      );
    const scoped = createAutoabrAuth({
      required: true,
      verifyToken: async () => ({ ...operator, scopes: ['autoabr'] }),
    });
    expect(await status(scoped(req()))).toBe(401);
    expect(await scoped(req({ 'x-jwt': 'Bearer t' }))).toBe('acme');
    const unscoped = createAutoabrAuth({ required: true, verifyToken: async () => operator });
    expect(await status(unscoped(req({ 'x-jwt': 'Bearer t' })))).toBe(403);
    const refusing = createAutoabrAuth({
      required: true,
      verifyToken: async () => {
        throw unauthorized('invalid token');
      },
    });
    expect(await status(refusing(req({ 'x-jwt': 'Bearer t' })))).toBe(401);
    const broken = createAutoabrAuth({
      required: true,
      verifyToken: async () => {
        throw new Error('SSM unreachable');
      },
    });
    expect(await status(broken(req({ 'x-jwt': 'Bearer t' })))).toBe(401);
  });
});

describe('tenant rules of jobs', () => {
  it('a job is visible to its tenant only, or to everyone with auth off', () => {
    expect(visibleTo({ tenant: 'a' }, 'a')).toBe(true);
    expect(visibleTo({ tenant: 'a' }, 'b')).toBe(false);
    expect(visibleTo({}, 'a')).toBe(false);
    expect(visibleTo({ tenant: 'a' }, undefined)).toBe(true);
    expect(visibleTo({}, undefined)).toBe(true);
  });

  it("a tenant's results go under its own prefix", () => {
    expect(tenantResultPrefix('acme', 'results')).toBe('acme/results');
    expect(tenantResultPrefix(undefined, 'results')).toBe('results');
  });
});
