/**
 * The path and query of a request. Most requests are players reloading a plain path
 * (`/channels/<id>/<n>.m3u8`): one made only of segments of letters, digits, `_` and `-` joined by single
 * dots is its own WHATWG pathname (nothing to percent-encode, no dot segment, no query), so it is taken
 * as it is instead of parsing a URL object for it. Anything else is parsed as before.
 */
export type RequestTarget = Pick<URL, 'pathname' | 'search' | 'searchParams'>;

const PLAIN_PATH = /^(?:\/[\w-]+(?:\.[\w-]+)*)+$/;
/** Shared by every plain path; only read. */
const NO_QUERY = new URLSearchParams();

export function requestTarget(raw: string | undefined): RequestTarget {
  if (raw !== undefined && PLAIN_PATH.test(raw)) return { pathname: raw, search: '', searchParams: NO_QUERY };
  return new URL(raw ?? '/', 'http://engine.invalid');
}
