/** The schedule API's tenant is the Host header, checked before it becomes a DynamoDB key. */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { MAX_TENANT_LENGTH, tenantOf } from '../../functions/schedule/api/tenant';

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
