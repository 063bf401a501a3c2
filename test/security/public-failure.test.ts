import { describe, expect, it } from 'vitest';
import { FetchError } from '../../core/fetch/bounded-fetch';
import { publicFailure, publicFailureCode } from '../../core/fetch/public-failure';
import { TimeoutError } from '../../core/timeout';

describe('publicFailureCode', () => {
  it.each([
    [new FetchError('http://10.0.0.5/x returned 404', 'not_found', 404), 'not_found'],
    [new FetchError('http://a/x returned 500', 'http_error', 500), 'http_error'],
    [new FetchError('http://a/x did not answer within 5 ms', 'timeout'), 'timeout'],
    [new FetchError('http://a/x: body exceeds', 'too_large'), 'too_large'],
    [new TimeoutError('loading VOD timed out'), 'timeout'],
  ] as const)('keeps what the user can act on: %s → %s', (err, code) => {
    expect(publicFailureCode(err)).toBe(code);
  });

  it.each([
    new FetchError('internal.corp resolves to a private address (10.0.0.5)', 'blocked'),
    new FetchError('http://a/: connect ECONNREFUSED 127.0.0.1:6379', 'network'),
    new FetchError('http://a/: more than 5 redirects', 'too_many_redirects'),
    new Error('getaddrinfo ENOTFOUND internal.corp'),
  ])('says unavailable for a refused or unreachable address: %s', (err) => {
    expect(publicFailureCode(err)).toBe('unavailable');
  });

  it('writes a message with the code and nothing of the error', () => {
    expect(publicFailure('the feed', 'unavailable')).toBe('the feed could not be read (unavailable)');
  });
});
