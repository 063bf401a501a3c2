/**
 * Fetching a text resource on a user's behalf: always with a deadline and a size bound, so a slow or
 * huge origin cannot stall a channel or exhaust memory.
 */
import { BodyTooLargeError, readBoundedText } from '../../../core/fetch/bounded-body';
import { TimeoutError, withTimeout } from './timeout';

export type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;

export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    message: string,
    readonly code: 'not_found' | 'http_error' | 'timeout' | 'too_large' | 'network',
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchTextOptions {
  timeoutMs: number;
  maxBytes: number;
}

export async function fetchText(fetchFn: FetchLike, url: string, opts: FetchTextOptions): Promise<string> {
  const controller = new AbortController();
  const work = (async () => {
    const res = await fetchFn(url, { signal: controller.signal });
    if (res.status === 404) throw new FetchError(`${url} returned 404`, 'not_found', 404);
    if (!res.ok) throw new FetchError(`${url} returned ${res.status}`, 'http_error', res.status);
    return await readBoundedText(res, opts.maxBytes, url).catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) throw new FetchError(err.message, 'too_large');
      throw err;
    });
  })();
  try {
    // The race (not only the signal) enforces the deadline even with a fetch that ignores signals.
    return await withTimeout(work, opts.timeoutMs, `fetching ${url}`);
  } catch (err) {
    controller.abort();
    work.catch(() => undefined);
    if (err instanceof FetchError) throw err;
    if (err instanceof TimeoutError)
      throw new FetchError(`${url} did not answer within ${opts.timeoutMs} ms`, 'timeout');
    throw new FetchError(`${url}: ${(err as Error).message}`, 'network');
  }
}
