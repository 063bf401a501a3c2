/**
 * The fetch every server-side request for a user-supplied URL goes through (VOD and preroll playlists,
 * slates, webhooks, WebVTT sources, schedule feeds), as a FetchLike for bounded-fetch.ts, which keeps
 * the deadline, the size bound and the redirect loop (so each hop comes back here and is checked).
 *
 * Per request: refuse credentials in the URL; resolve the host once; refuse it when any of its
 * addresses is private (address-policy.ts); then connect to exactly the addresses that were checked,
 * through node:http(s) with a `lookup` that hands them over, so a second DNS answer (DNS rebinding)
 * never reaches the socket. The Host header and TLS SNI stay the URL's host name.
 *
 * With `allowPrivate` (npm start: ALLOW_PRIVATE_URLS) the same path runs without the address check.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { decideHost, isBlockedAddress } from './address-policy';
import type { FetchLike } from './bounded-fetch';
import { BlockedUrlError, hasCredentials } from './url-guard';

export interface GuardedFetchOptions {
  /** Let private, loopback and link-local addresses through (a local run only). */
  allowPrivate: boolean;
  /** Every address of a host name. Default: the system resolver (`dns.lookup`, all addresses). */
  resolve?: (hostname: string) => Promise<string[]>;
  /** The address decision. Default: isBlockedAddress; tests narrow it to keep traffic on loopback. */
  isBlocked?: (address: string) => boolean;
}

const systemResolve = async (hostname: string): Promise<string[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Statuses whose response has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The addresses to connect to: every one of them checked, or a BlockedUrlError. */
async function checkedAddresses(url: URL, options: GuardedFetchOptions): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const isBlocked = options.isBlocked ?? isBlockedAddress;
  const refuse = () => new BlockedUrlError(`${url.host} is not a public address`);
  if (isIP(host)) {
    if (!options.allowPrivate && isBlocked(host)) throw refuse();
    return [host];
  }
  // A localhost name is loopback whatever a resolver would say: refused before asking one.
  if (!options.allowPrivate && decideHost(host) === 'blocked') throw refuse();
  const addresses = await (options.resolve ?? systemResolve)(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!options.allowPrivate && addresses.some(isBlocked)) throw refuse();
  return addresses;
}

/** A `lookup` that answers the addresses already checked, never asking DNS again. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname, opts, callback) => {
    if (opts?.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  }) as LookupFunction;
}

function toResponse(res: http.IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: res.statusMessage, headers });
}

/** A FetchLike that only reaches public addresses (unless allowPrivate) and never follows redirects. */
export function guardedFetch(options: GuardedFetchOptions): FetchLike {
  // Own agents: a kept-alive socket opened for another policy must never serve this one.
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return async (input, init = {}) => {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new BlockedUrlError(`${url.protocol} URLs are not fetched`);
    if (hasCredentials(url)) throw new BlockedUrlError('URLs with credentials are not fetched');
    const addresses = await checkedAddresses(url, options);
    init.signal?.throwIfAborted();
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'GET',
          headers: init.headers,
          agent: agents[url.protocol as 'http:' | 'https:'],
          lookup: pinnedLookup(addresses),
          signal: init.signal,
        },
        (res) => {
          // A status or header a Response refuses (status 600, a bad reason phrase) must reject this
          // request, not throw inside the HTTP parser's event.
          try {
            resolve(toResponse(res));
          } catch (err) {
            res.destroy();
            reject(err);
          }
        },
      );
      req.on('error', reject);
      req.end();
    });
  };
}

const shared = new Map<boolean, FetchLike>();

/** One guarded fetch per policy for the whole process, so its kept-alive connections are shared. */
export function processGuardedFetch(allowPrivate: boolean): FetchLike {
  let fetch = shared.get(allowPrivate);
  if (!fetch) {
    fetch = guardedFetch({ allowPrivate });
    shared.set(allowPrivate, fetch);
  }
  return fetch;
}
