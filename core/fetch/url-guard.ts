/**
 * What may be fetched on a user's behalf, before a connection is opened. The address decision itself
 * is address-policy.ts; the guarded fetch (guarded-fetch.ts) applies it after DNS, on every hop, and
 * connects to the very address it checked. This file holds what both the fetch and the APIs that take
 * URLs (channel create) share: the refusal error and the checks of a URL's shape.
 */
import { decideHost } from './address-policy';

export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

/** Checked by bounded-fetch before every hop; throws to refuse. */
export type UrlGuard = (url: URL) => Promise<void>;

export const allowAllUrls: UrlGuard = async () => undefined;

/** Credentials in a URL end up in logs, events and Referer headers: no URL we fetch may carry them. */
export const hasCredentials = (url: URL): boolean => url.username !== '' || url.password !== '';

/**
 * True when the URL's host is, as written, a private, loopback or link-local address (any spelling
 * of one) or a localhost name. A DNS name is not resolved here: the guarded fetch checks it later.
 */
export function isLiteralPrivateUrl(url: string): boolean {
  try {
    return decideHost(new URL(url).hostname) === 'blocked';
  } catch {
    return false;
  }
}
