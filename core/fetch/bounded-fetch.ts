/**
 * The one way onair fetches a URL on someone's behalf (VOD and preroll playlists, webhooks, feeds, the
 * schedule API, WebVTT): a deadline over the whole exchange (headers and body, enforced by a race
 * even against a fetch implementation that ignores its signal), a size bound enforced while reading
 * (not trusted from Content-Length alone), http(s) only, and an optional URL guard applied to every
 * redirect hop (redirects are followed here, never by fetch itself, so no hop escapes the guard).
 */
import { TimeoutError, withTimeout } from '../timeout';
import { BodyTooLargeError, readBoundedText, readPrefixBytes } from './bounded-body';
import { allowAllUrls, BlockedUrlError, type UrlGuard } from './url-guard';

/** The subset of `fetch` used here: tests and hosts may inject their own. */
export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal; headers?: Record<string, string>; redirect?: 'manual' },
) => Promise<Response>;

export type FetchErrorCode =
  | 'not_found'
  | 'http_error'
  | 'timeout'
  | 'too_large'
  | 'network'
  | 'blocked'
  | 'bad_url'
  | 'too_many_redirects';

export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    message: string,
    readonly code: FetchErrorCode,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface FetchTextOptions extends FetchLimits {
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /** Checked before every hop; throws to refuse. Default: every URL allowed. */
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

const MAX_REDIRECTS = 5;

function parseUrl(url: string | URL, base?: URL): URL {
  try {
    return new URL(url, base);
  } catch {
    throw new FetchError(`${String(url)} is not a valid URL`, 'bad_url');
  }
}

async function readBody(res: Response, maxBytes: number, url: string): Promise<string> {
  try {
    return await readBoundedText(res, maxBytes, url);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new FetchError(err.message, 'too_large');
    throw err;
  }
}

interface Exchanged<T> {
  status: number;
  headers: Headers;
  body: T;
  url: string;
}

async function exchange<T>(
  url: string,
  options: FetchTextOptions,
  signal: AbortSignal,
  read: (res: Response, href: string) => Promise<T>,
  empty: T,
): Promise<Exchanged<T>> {
  const doFetch: FetchLike = options.fetch ?? (globalThis.fetch as FetchLike);
  const guard = options.guard ?? allowAllUrls;
  let current = parseUrl(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new FetchError(`${current}: only http and https URLs are fetched`, 'bad_url');
    }
    await guard(current);
    const href = current.toString();
    const res = await doFetch(href, { headers: options.headers, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
      await res.body?.cancel();
      current = parseUrl(location, current);
      continue;
    }
    const body = res.status === 304 ? empty : await read(res, href);
    return { status: res.status, headers: res.headers, body, url: href };
  }
  throw new FetchError(`${url}: more than ${MAX_REDIRECTS} redirects`, 'too_many_redirects');
}

/** GET a text resource within the limits; non-2xx/304 statuses are returned, not thrown. */
export async function fetchText(url: string, options: FetchTextOptions): Promise<FetchedText> {
  const res = await bounded(url, options, (r, href) => readBody(r, options.maxBytes, href), '');
  return { status: res.status, headers: res.headers, text: res.body, url: res.url };
}

async function bounded<T>(
  url: string,
  options: FetchTextOptions,
  read: (res: Response, href: string) => Promise<T>,
  empty: T,
): Promise<Exchanged<T>> {
  const controller = new AbortController();
  const work = exchange(url, options, controller.signal, read, empty);
  try {
    return await withTimeout(work, options.timeoutMs, `fetching ${url}`);
  } catch (err) {
    controller.abort();
    work.catch(() => undefined);
    if (err instanceof FetchError) throw err;
    if (err instanceof BlockedUrlError) throw new FetchError(err.message, 'blocked');
    if (err instanceof TimeoutError)
      throw new FetchError(`${url} did not answer within ${options.timeoutMs} ms`, 'timeout');
    throw new FetchError(`${url}: ${(err as Error).message}`, 'network');
  }
}

/** GET a text resource that must answer 2xx: a 404 or any other status is a FetchError. */
export async function fetchOkText(url: string, options: FetchTextOptions): Promise<string> {
  const res = await fetchText(url, options);
  if (res.status === 404) throw new FetchError(`${url} returned 404`, 'not_found', 404);
  if (res.status < 200 || res.status > 299)
    throw new FetchError(`${url} returned ${res.status}`, 'http_error', res.status);
  return res.text;
}

/**
 * GET the first `maxBytes` of a resource that must answer 2xx (asked with a Range header; a server
 * that ignores it is read no further than that): for a segment's headers, never its whole body.
 */
export async function fetchOkPrefix(url: string, options: FetchTextOptions): Promise<Uint8Array> {
  const headers = { ...options.headers, range: `bytes=0-${options.maxBytes - 1}` };
  const res = await bounded(
    url,
    { ...options, headers },
    (r) => readPrefixBytes(r, options.maxBytes),
    new Uint8Array(),
  );
  if (res.status === 404) throw new FetchError(`${url} returned 404`, 'not_found', 404);
  if (res.status < 200 || res.status > 299)
    throw new FetchError(`${url} returned ${res.status}`, 'http_error', res.status);
  return res.body;
}
