/**
 * The address decision, as a pure function: every range is decided here without sending a packet
 * (a test never sends traffic to a non-loopback address).
 */
import { describe, expect, it } from 'vitest';
import { decideHost, hostAddress, isBlockedAddress, isLoopbackName } from '../../core/fetch/address-policy';

/** URL hosts as a user would write them. */
const refusedHosts = [
  '127.0.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b::127.0.0.1]',
  '2130706433',
  '127.1',
  '0x7f.1',
  '0177.0.0.1',
  '0x7f000001',
  '0.0.0.0',
  '0',
  '[::]',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
];

describe('decideHost', () => {
  it.each(refusedHosts)('refuses %s before any DNS', (host) => {
    expect(decideHost(host)).toBe('blocked');
  });

  it.each(['93.184.216.34', '[2606:2800::1]', '8.8.8.8', '[::ffff:93.184.216.34]', '[64:ff9b::808:808]'])(
    'allows the public address %s without connecting',
    (host) => {
      expect(decideHost(host)).toBe('allowed');
    },
  );

  it.each(['example.com', 'vod.example.com.', 'localhost.example.com'])(
    'leaves the name %s to be resolved and checked',
    (host) => {
      expect(decideHost(host)).toBe('resolve');
    },
  );
});

describe('hostAddress', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:127.0.0.1'],
    ['::1', '::1'],
  ])('reads the host %s as the address %s', (host, address) => {
    expect(hostAddress(host)).toBe(address);
  });

  it.each(['example.com', 'a:b', '[not-an-address]', ''])('reads %j as no address', (host) => {
    expect(hostAddress(host)).toBeUndefined();
  });
});

describe('isBlockedAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.255.255.255', 'this network'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local (metadata service)'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible (deprecated: refused whatever it embeds)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex (what the URL parser writes)'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata service'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of a private address'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo of client 127.0.0.1'],
    ['2001:0:a00:1::1', 'Teredo with a private server'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'ORCHID'],
    ['3fff::1', 'documentation'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'not allocated'],
    ['fe80::1%eth0', 'scoped'],
    ['localhost', 'not an address'],
    ['', 'not an address'],
    ['1.2.3', 'not canonical'],
  ])('refuses %s (%s)', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.20.0.0',
    '223.255.255.255',
    '2606:2800::1',
    '2001:4860:4860::8888',
    '2a00:1450::1',
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});

describe('isLoopbackName', () => {
  it.each(['localhost', 'localhost.', 'a.b.localhost', 'LocalHost'])('knows %s is loopback', (name) => {
    expect(isLoopbackName(name)).toBe(true);
  });

  it.each(['localhost.example.com', 'mylocalhost', 'example.com'])('knows %s is not', (name) => {
    expect(isLoopbackName(name)).toBe(false);
  });
});
