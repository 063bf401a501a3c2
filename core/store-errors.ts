/**
 * The one judgement of which failures mean "a store (DynamoDB, SQS, S3, SSM) cannot be reached right
 * now": it timed out, refused or dropped the connection, throttled us, or failed on its side (5xx). For
 * the caller these are worth retrying, so the HTTP edge (http.ts toErrorResponse) answers them with
 * 503 `store_unavailable` and `Retry-After` instead of a 500 that says "our bug".
 */
import { HttpError } from './errors';

/** What a caller waits before retrying; throttling and restarts rarely last less. */
export const STORE_RETRY_AFTER_SECONDS = 2;

const UNAVAILABLE_NAMES = new Set([
  // the SDK's connection and request timeouts (core/aws.ts), and the services' own
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  // throttling
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  // the service failing on its side
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Cancellation reasons of a transaction that mean the same as the errors above. */
const UNAVAILABLE_REASONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

interface SdkLikeError {
  name?: unknown;
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  CancellationReasons?: { Code?: unknown }[];
  errors?: unknown[];
  cause?: unknown;
}

export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const e = err as SdkLikeError;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (e.$fault === 'server' || (typeof status === 'number' && status >= 500)) return true;
  if (e.CancellationReasons?.some((r) => typeof r.Code === 'string' && UNAVAILABLE_REASONS.has(r.Code)))
    return true;
  // Node reports a failed connection to a dual-stack name as an AggregateError of one error per address.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(e.cause, depth + 1);
}

export const storeUnavailable = (): HttpError =>
  new HttpError(503, 'store_unavailable', 'a data store is unavailable or overloaded; retry shortly', {
    retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
  });
