/** Which failures of a store are "unavailable, retry" (503) rather than our bug (500). */
import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../core/http';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '../../core/store-errors';

const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });
const systemError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('a store is unavailable when', () => {
  it.each([
    ['it throttles', new ProvisionedThroughputExceededException({ message: 'slow down', ...meta(400) })],
    ['it limits requests', new RequestLimitExceeded({ message: 'limit', ...meta(400) })],
    ['it fails on its side', new InternalServerError({ message: 'boom', ...meta(500) })],
    ['a call times out', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
    ['the connection is refused', systemError('ECONNREFUSED')],
    ['the connection is reset', systemError('ECONNRESET')],
    ['every address of a dual-stack name refuses', new AggregateError([systemError('ECONNREFUSED')])],
    [
      'a transaction is cancelled for throttling',
      new TransactionCanceledException({
        message: 'cancelled',
        ...meta(400),
        CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }],
      }),
    ],
  ])('%s', (_what, err) => {
    expect(isStoreUnavailable(err)).toBe(true);
  });
});

describe('a store is not unavailable when', () => {
  it.each([
    ['a condition does not hold', new ConditionalCheckFailedException({ message: 'no', ...meta(400) })],
    ['the request is invalid', Object.assign(new Error('key too long'), { name: 'ValidationException' })],
    ['our own code fails', new TypeError('undefined is not a function')],
  ])('%s', (_what, err) => {
    expect(isStoreUnavailable(err)).toBe(false);
  });
});

describe('the HTTP edge', () => {
  it('answers an unavailable store with 503 store_unavailable and Retry-After', () => {
    const res = toErrorResponse(systemError('ECONNREFUSED'));
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe(String(STORE_RETRY_AFTER_SECONDS));
    expect(JSON.parse(String(res.body))).toMatchObject({ code: 'store_unavailable' });
  });

  it('still answers our own faults with 500 internal', () => {
    expect(toErrorResponse(new TypeError('bug'), 'r1').statusCode).toBe(500);
  });
});
