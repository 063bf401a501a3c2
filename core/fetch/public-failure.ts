/**
 * What a user may be told about a failed fetch of their URL: a stable code, never the error's text.
 * Fetch errors carry addresses, ports, statuses and resolver messages ("ECONNREFUSED 10.0.0.5:6379",
 * "resolves to a private address"): echoed back, they would turn our fetcher into a probe of the
 * network it runs in. Full detail goes to the log; the user gets the code.
 *
 * A refused address and an unreachable one are both `unavailable`, so the answer does not tell a name
 * that resolves privately from one that does not resolve at all.
 */
import { TimeoutError } from '../timeout';
import { FetchError } from './bounded-fetch';

export type PublicFailureCode =
  | 'not_found'
  | 'http_error'
  | 'timeout'
  | 'too_large'
  | 'malformed'
  | 'unavailable';

export function publicFailureCode(err: unknown): PublicFailureCode {
  if (err instanceof TimeoutError) return 'timeout';
  if (!(err instanceof FetchError)) return 'unavailable';
  switch (err.code) {
    case 'not_found':
    case 'http_error':
    case 'timeout':
    case 'too_large':
      return err.code;
    default:
      return 'unavailable';
  }
}

/** "the feed could not be read (timeout)": `what` names the thing, the code says why. */
export const publicFailure = (what: string, code: PublicFailureCode): string =>
  `${what} could not be read (${code})`;
