import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import {
  decodePathParam,
  MAX_JSON_DEPTH,
  MAX_PATH_PARAM_LENGTH,
  matchPath,
  nestsDeeperThan,
} from '../../core/http';

function refusal(run: () => unknown): { status: number; code: string; field?: unknown } | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: err.status, code: err.code, field: err.details.field };
  }
}

describe('path parameters', () => {
  it('are decoded once, after the literal segments matched', () => {
    expect(matchPath('/channel/{id}', '/channel/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/channel/{id}', '/other/%')).toBeUndefined();
  });

  it('with malformed percent-encoding are a 400 naming the parameter', () => {
    expect(refusal(() => matchPath('/channel/{id}', '/channel/%E0%A4%A'))).toMatchObject({
      status: 400,
      field: 'id',
    });
  });

  it(`longer than ${MAX_PATH_PARAM_LENGTH} characters are a 400`, () => {
    expect(refusal(() => decodePathParam('id', 'x'.repeat(MAX_PATH_PARAM_LENGTH + 1)))?.status).toBe(400);
  });

  it('with control characters (NUL included) are a 400', () => {
    expect(refusal(() => decodePathParam('id', 'a%00b'))?.status).toBe(400);
  });
});

describe('request body nesting', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}\\"["}`, 1)).toBe(false);
  });

  it(`deeper than ${MAX_JSON_DEPTH} levels is refused`, () => {
    expect(nestsDeeperThan('['.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });
});
