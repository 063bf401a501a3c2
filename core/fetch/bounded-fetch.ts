/**
 * Every fetch the auto-scheduler makes: a timeout over the whole exchange (headers and body), a
 * size bound enforced while reading (not trusted from Content-Length alone), http(s) only, and the
 * URL guard applied to every redirect hop.
 */
import { BodyTooLargeError, readBoundedText } from './bounded-body';
import { allowAllUrls, type UrlGuard } from './url-guard';

export type FetchFn = typeof fetch;

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface FetchTextOptions extends FetchLimits {
  headers?: Record<string, string>;
  fetch?: FetchFn;
  guard?: UrlGuard;
}

export interface FetchedText {
  status: number;
  headers: Headers;
  /** Empty for 304. */
  text: string;
  /** The URL after redirects. */
  url: string;
}

export class FetchError extends Error {
  override name = 'FetchError';
}

const MAX_REDIRECTS = 5;

async function readBody(res: Response, maxBytes: number, url: string): Promise<string> {
  try {
    return await readBoundedText(res, maxBytes, url);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new FetchError(err.message);
    throw err;
  }
}

async function exchange(url: string, options: FetchTextOptions, signal: AbortSignal): Promise<FetchedText> {
  const doFetch = options.fetch ?? fetch;
  const guard = options.guard ?? allowAllUrls;
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new FetchError(`${current}: only http and https URLs are fetched`);
    }
    await guard(current);
    const res = await doFetch(current, { headers: options.headers, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
      await res.body?.cancel();
      current = new URL(location, current);
      continue;
    }
    const text = res.status === 304 ? '' : await readBody(res, options.maxBytes, current.toString());
    return { status: res.status, headers: res.headers, text, url: current.toString() };
  }
  throw new FetchError(`${url}: more than ${MAX_REDIRECTS} redirects`);
}

/** GET a text resource within the limits; non-2xx/304 statuses are returned, not thrown. */
export async function fetchText(url: string, options: FetchTextOptions): Promise<FetchedText> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    return await exchange(url, options, signal);
  } catch (err) {
    if (signal.aborted) throw new FetchError(`${url}: no complete response within ${options.timeoutMs} ms`);
    if (err instanceof FetchError) throw err;
    throw new FetchError(`${url}: ${(err as Error).message}`);
  }
}
