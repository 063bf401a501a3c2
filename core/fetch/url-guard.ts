/**
 * In a deployment, URLs fetched on a user's behalf (feeds, VOD playlists) must not reach private,
 * loopback or link-local addresses (the instance metadata endpoint above all). Locally the feeds
 * usually live on 127.0.0.1, so the guard is a setting (SCHEDULE_BLOCK_PRIVATE_URLS).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

function ipv4Private(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/** True for addresses a user-supplied URL must not reach. */
export function isPrivateAddress(ip: string): boolean {
  const lower = ip.toLowerCase();
  if (isIP(lower) === 4) return ipv4Private(lower);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Private(mapped[1]!);
  return (
    lower === '::' ||
    lower === '::1' ||
    lower.startsWith('fe8') ||
    lower.startsWith('fe9') ||
    lower.startsWith('fea') ||
    lower.startsWith('feb') ||
    lower.startsWith('fc') ||
    lower.startsWith('fd') ||
    lower.startsWith('ff')
  );
}

export type UrlGuard = (url: URL) => Promise<void>;

export const allowAllUrls: UrlGuard = async () => undefined;

/** Rejects a URL whose host is, or resolves to, a private address. */
export const blockPrivateUrls: UrlGuard = async (url) => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) throw new BlockedUrlError(`${url.host} resolves to a private address (${blocked})`);
};
