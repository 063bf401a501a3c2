/** The schedule API's tenant is the Host header, checked before it becomes a DynamoDB key. */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { callerOf } from '../../functions/schedule/api/auth';
import { MAX_TENANT_LENGTH, requestTenant, tenantOf } from '../../functions/schedule/api/tenant';

function refusal(host: string): { status: number; field: unknown } | undefined {
  try {
    tenantOf({ host });
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: err.status, field: err.details.field };
  }
}

describe('the tenant of a schedule request', () => {
  it.each([
    ['localhost:8090', 'localhost:8090'],
    ['Schedule.Example.COM', 'schedule.example.com'],
    ['127.0.0.1:8090', '127.0.0.1:8090'],
    ['[::1]:8090', '[::1]:8090'],
  ])('is the host %s, lower-cased', (host, tenant) => {
    expect(tenantOf({ host })).toBe(tenant);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['over-long', `${'a'.repeat(MAX_TENANT_LENGTH)}.example`],
    ['with a path', 'example.com/x'],
    ['with a NUL', 'exa\u0000mple.com'],
    ['with a right-to-left override', 'exa\u202emple.com'],
    ['with a port beyond 65535', 'example.com:70000'],
    ['a label starting with a hyphen', '-bad.example.com'],
  ])('is refused with a 400 naming host when the Host is %s', (_what, host) => {
    expect(refusal(host)).toEqual({ status: 400, field: 'host' });
  });
});

describe('the tenant rule', () => {
  it('is the token’s subject whenever a token was verified, whatever the Host', () => {
    expect(requestTenant({ host: 'a.example' }, { tenant: 'tb' })).toBe('tb');
    expect(requestTenant({ host: '' }, { tenant: 'tb' })).toBe('tb');
  });

  it('is the Host only in the open local mode (no token)', () => {
    expect(requestTenant({ host: 'LocalHost:8090' }, undefined)).toBe('localhost:8090');
  });

  it('reads the caller and the read-all scope from the verifier’s answer', () => {
    expect(callerOf({ tenant: 'ta', env: 'test', plan: 'operator', maxChannels: 1 })).toEqual({
      tenant: 'ta',
      readAll: false,
    });
    expect(callerOf({ tenant: 'engine', scopes: ['schedule:read-all'] })).toEqual({
      tenant: 'engine',
      readAll: true,
    });
    for (const none of [undefined, null, 'ta', {}, { tenant: '' }, { tenant: 3 }])
      expect(callerOf(none)).toBeUndefined();
  });
});
