/**
 * The address decision: which IP addresses a URL fetched on a user's behalf may reach. Pure, so every
 * range is unit-tested without sending a packet (test/security/address-policy.test.ts).
 *
 * It is an allow list where that is possible: an IPv4 address is allowed unless it is in one of the
 * special-purpose ranges below; an IPv6 address only when it is global unicast (2000::/3) outside the
 * special ranges, or an IPv4 address embedded in IPv6 (mapped, translated, NAT64, 6to4, Teredo) that is
 * itself allowed. Anything that does not parse as an address is refused: failing closed is the point.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** [first address, prefix length] in 32-bit form. */
type V4Range = readonly [number, number];

const v4 = (a: number, b: number, c: number, d: number): number =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IANA IPv4 special-purpose ranges that are not globally reachable, plus multicast and reserved. */
const BLOCKED_V4: readonly V4Range[] = [
  [v4(0, 0, 0, 0), 8], // "this network", 0.0.0.0 included (it reaches the local host)
  [v4(10, 0, 0, 0), 8], // private
  [v4(100, 64, 0, 0), 10], // carrier-grade NAT
  [v4(127, 0, 0, 0), 8], // loopback
  [v4(169, 254, 0, 0), 16], // link-local: the instance metadata service lives at 169.254.169.254
  [v4(172, 16, 0, 0), 12], // private
  [v4(192, 0, 0, 0), 24], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24], // documentation
  [v4(192, 88, 99, 0), 24], // 6to4 relay anycast
  [v4(192, 168, 0, 0), 16], // private
  [v4(198, 18, 0, 0), 15], // benchmarking
  [v4(198, 51, 100, 0), 24], // documentation
  [v4(203, 0, 113, 0), 24], // documentation
  [v4(224, 0, 0, 0), 4], // multicast
  [v4(240, 0, 0, 0), 4], // reserved, and the broadcast address
];

const inV4Range = (ip: number, [base, bits]: V4Range): boolean =>
  bits === 0 || ip >>> (32 - bits) === base >>> (32 - bits);

function parseV4(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  const [a, b, c, d] = text.split('.').map(Number) as [number, number, number, number];
  return v4(a, b, c, d);
}

export function isBlockedV4(ip: number): boolean {
  return BLOCKED_V4.some((range) => inV4Range(ip, range));
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
export function parseV6(text: string): number[] | undefined {
  if (!isIPv6(text) || text.includes('%')) return undefined;
  let body = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const n = parseV4(dotted[1]!)!;
    body = `${body.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = body.split('::');
  const parts = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const zeros = Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

const embeddedV4 = (hi: number, lo: number): number => ((hi << 16) | lo) >>> 0;

/** Does the address start with `prefix` (groups) over `bits` bits? */
function hasPrefix(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** IPv6 ranges that are refused whatever they carry (inside 2000::/3, which is otherwise allowed). */
const BLOCKED_V6: ReadonlyArray<readonly [readonly number[], number]> = [
  [[0x2001, 0x0db8], 32], // documentation
  [[0x2001, 0x0002, 0], 48], // benchmarking
  [[0x2001, 0x0010], 28], // ORCHID
  [[0x2001, 0x0020], 28], // ORCHIDv2
  [[0x3fff], 20], // documentation (RFC 9637)
];

/** The verdict on the IPv4 address an IPv6 address embeds ('none' when it embeds none). */
function embeddedVerdict(g: readonly number[]): 'allowed' | 'blocked' | 'none' {
  const verdict = (...ips: number[]) => (ips.some(isBlockedV4) ? 'blocked' : 'allowed');
  const last = embeddedV4(g[6]!, g[7]!);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return verdict(last); // ::ffff:a.b.c.d (IPv4-mapped)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return verdict(last); // ::ffff:0:a.b.c.d (translated)
  if (hasPrefix(g, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return verdict(last); // NAT64 well-known prefix
  if (g[0] === 0x2002) return verdict(embeddedV4(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) {
    // Teredo: the server's address, and the client's with every bit flipped.
    return verdict(embeddedV4(g[2]!, g[3]!), ~last >>> 0);
  }
  return 'none';
}

function isBlockedV6(g: readonly number[]): boolean {
  const embedded = embeddedVerdict(g);
  if (embedded !== 'none') return embedded === 'blocked';
  // Outside global unicast: ::, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48, 100::/64, fc00::/7,
  // fe80::/10, fec0::/10, ff00::/8 and every range not yet allocated.
  if (!hasPrefix(g, [0x2000], 3)) return true;
  return BLOCKED_V6.some(([prefix, bits]) => hasPrefix(g, prefix, bits));
}

/**
 * True for an address a user-supplied URL must not reach. Takes the forms `dns.lookup` and
 * `net.isIP` know (dotted IPv4, IPv6 without brackets); anything else is refused.
 */
export function isBlockedAddress(ip: string): boolean {
  const four = parseV4(ip);
  if (four !== undefined) return isBlockedV4(four);
  const six = parseV6(ip);
  return six === undefined || isBlockedV6(six);
}

/**
 * The IP address a URL host names, in canonical form, or undefined for a DNS name. Any spelling the
 * WHATWG URL parser turns into an address counts (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`,
 * `[::ffff:127.0.0.1]`): the parser normalises them, and so does getaddrinfo, so both must agree.
 */
export function hostAddress(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare) || isIPv6(bare)) return bare;
  // Anything with a colon that is not a valid IPv6 literal is no address (and no URL host either).
  if (bare.includes(':')) return undefined;
  let normalised: string;
  try {
    normalised = new URL(`http://${bare}/`).hostname;
  } catch {
    return undefined;
  }
  return isIPv4(normalised) || isIPv6(normalised) ? normalised : undefined;
}

/** Names that are loopback by definition (RFC 6761), whatever a resolver says. */
export const isLoopbackName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

export type HostDecision = 'allowed' | 'blocked' | 'resolve';

/**
 * What can be decided about a URL host before any DNS: an address literal is allowed or blocked, a
 * localhost name is blocked, any other name must be resolved and each of its addresses checked.
 */
export function decideHost(host: string): HostDecision {
  const address = hostAddress(host);
  if (address !== undefined) return isBlockedAddress(address) ? 'blocked' : 'allowed';
  return isLoopbackName(host) ? 'blocked' : 'resolve';
}
