/**
 * The guarded fetch path, with loopback targets only: a "public" origin is a second loopback address
 * (127.0.0.2) that the test's address decision treats as public; everything else is decided by the
 * real policy. Each refusal is shown to happen before any connection to the refused address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../core/fetch/address-policy';
import { FetchError, fetchText } from '../../core/fetch/bounded-fetch';
import { guardedFetch } from '../../core/fetch/guarded-fetch';
import { type LoopbackOrigin, startLoopbackOrigin, treatAsPublic } from './support/loopback-origin';

const PUBLIC_STAND_IN = '127.0.0.2';
let internal: LoopbackOrigin; // 127.0.0.1: what an attacker wants to reach
let outside: LoopbackOrigin; // 127.0.0.2: stands for a public origin

beforeAll(async () => {
  [internal, outside] = await Promise.all([
    startLoopbackOrigin('127.0.0.1'),
    startLoopbackOrigin(PUBLIC_STAND_IN),
  ]);
  internal.put('/secret', { body: 'internal secret' });
  outside.put('/ok', { body: 'public body' });
});
afterAll(async () => {
  await Promise.all([internal?.close(), outside?.close()]);
});

const names: Record<string, string[]> = {
  'vod.example.test': [PUBLIC_STAND_IN],
  'internal.example.test': ['127.0.0.1'],
  'mixed.example.test': [PUBLIC_STAND_IN, '127.0.0.1'],
};
let lookups: string[] = [];
const resolve = async (host: string) => {
  lookups.push(host);
  const addresses = names[host];
  if (!addresses) throw new Error(`test resolver: no ${host}`);
  return addresses;
};

const deployed = guardedFetch({
  allowPrivate: false,
  resolve,
  isBlocked: treatAsPublic(PUBLIC_STAND_IN, isBlockedAddress),
});
const local = guardedFetch({ allowPrivate: true, resolve });
const limits = { timeoutMs: 2000, maxBytes: 1024 };

async function refusal(url: string): Promise<FetchError> {
  const err = await fetchText(url, { ...limits, fetch: deployed }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

function internalRequestsDuring(run: () => Promise<unknown>): Promise<number> {
  const before = internal.requests.length;
  return run().then(() => internal.requests.length - before);
}

describe('the guarded fetch in deployment mode', () => {
  it.each([
    ['a literal loopback address', () => `${internal.url}/secret`],
    ['a decimal spelling of it', () => `http://2130706433:${internal.port}/secret`],
    ['a short spelling of it', () => `http://127.1:${internal.port}/secret`],
    ['a hex spelling of it', () => `http://0x7f.1:${internal.port}/secret`],
    ['an IPv4-mapped IPv6 spelling of it', () => `http://[::ffff:127.0.0.1]:${internal.port}/secret`],
    ['the IPv6 loopback', () => `http://[::1]:${internal.port}/secret`],
    ['localhost', () => `http://localhost:${internal.port}/secret`],
    ['a name that resolves to 127.0.0.1', () => `http://internal.example.test:${internal.port}/secret`],
    [
      'a name with one private address among public ones',
      () => `http://mixed.example.test:${internal.port}/secret`,
    ],
  ])('refuses %s without connecting to it', async (_what, url) => {
    const reached = await internalRequestsDuring(async () => {
      expect((await refusal(url())).code).toBe('blocked');
    });
    expect(reached).toBe(0);
  });

  it('refuses localhost before asking any resolver', async () => {
    lookups = [];
    await refusal(`http://localhost:${internal.port}/secret`);
    expect(lookups).toEqual([]);
  });

  it('refuses a redirect from a public origin to a loopback address, never reaching it', async () => {
    outside.put('/to-internal', { redirect: `${internal.url}/secret` });
    const reached = await internalRequestsDuring(async () => {
      expect((await refusal(`${outside.url}/to-internal`)).code).toBe('blocked');
    });
    expect(reached).toBe(0);
    expect(outside.requests.some((r) => r.path === '/to-internal')).toBe(true);
  });

  it('refuses a redirect to a name that resolves to loopback', async () => {
    outside.put('/to-name', { redirect: `http://internal.example.test:${internal.port}/secret` });
    const reached = await internalRequestsDuring(async () => {
      expect((await refusal(`${outside.url}/to-name`)).code).toBe('blocked');
    });
    expect(reached).toBe(0);
  });

  it('refuses a URL with credentials before resolving it', async () => {
    lookups = [];
    expect((await refusal(`http://user:pass@vod.example.test:${outside.port}/ok`)).code).toBe('blocked');
    expect(lookups).toEqual([]);
  });

  it('fetches from a public address, sending the URL host name as Host', async () => {
    const res = await fetchText(`http://vod.example.test:${outside.port}/ok`, { ...limits, fetch: deployed });
    expect(res.text).toBe('public body');
    expect(outside.requests.at(-1)?.headers.host).toBe(`vod.example.test:${outside.port}`);
  });

  it('resolves a name once per hop and connects to the address it checked (no DNS rebinding)', async () => {
    lookups = [];
    let answers = 0;
    // A rebinding resolver: public for the check, loopback for any second question.
    const rebinding = guardedFetch({
      allowPrivate: false,
      isBlocked: treatAsPublic(PUBLIC_STAND_IN, isBlockedAddress),
      resolve: async (host) => {
        lookups.push(host);
        return answers++ === 0 ? [PUBLIC_STAND_IN] : ['127.0.0.1'];
      },
    });
    const reached = await internalRequestsDuring(async () => {
      const res = await fetchText(`http://rebind.example.test:${outside.port}/ok`, {
        ...limits,
        fetch: rebinding,
      });
      expect(res.text).toBe('public body');
    });
    expect(reached).toBe(0);
    expect(lookups).toEqual(['rebind.example.test']);
  });

  it('keeps the size bound of bounded-fetch', async () => {
    outside.put('/big', { body: 'x'.repeat(5000) });
    const err = await fetchText(`${outside.url}/big`, { ...limits, fetch: deployed }).catch(
      (e: unknown) => e,
    );
    expect((err as FetchError).code).toBe('too_large');
  });

  it('keeps the deadline of bounded-fetch', async () => {
    outside.put('/slow', { body: 'late', delayMs: 1000 });
    const err = await fetchText(`${outside.url}/slow`, { ...limits, timeoutMs: 200, fetch: deployed }).catch(
      (e: unknown) => e,
    );
    expect((err as FetchError).code).toBe('timeout');
  });
});

describe('the guarded fetch with private URLs allowed (npm start)', () => {
  it('fetches from a loopback address', async () => {
    expect((await fetchText(`${internal.url}/secret`, { ...limits, fetch: local })).text).toBe(
      'internal secret',
    );
  });

  it('fetches from localhost and a name that resolves to loopback', async () => {
    const viaName = await fetchText(`http://internal.example.test:${internal.port}/secret`, {
      ...limits,
      fetch: local,
    });
    expect(viaName.text).toBe('internal secret');
  });

  it('follows a redirect from one loopback address to another', async () => {
    outside.put('/to-internal', { redirect: `${internal.url}/secret` });
    const res = await fetchText(`${outside.url}/to-internal`, { ...limits, fetch: local });
    expect(res.text).toBe('internal secret');
    expect(res.url).toBe(`${internal.url}/secret`);
  });

  it('still refuses a URL with credentials', async () => {
    const err = await fetchText(`http://user:pass@127.0.0.1:${internal.port}/secret`, {
      ...limits,
      fetch: local,
    }).catch((e: unknown) => e);
    expect((err as FetchError).code).toBe('blocked');
  });

  it('turns an answer a Response cannot carry (status 600) into a network error', async () => {
    internal.put('/odd', { body: 'odd', status: 600 });
    const err = await fetchText(`${internal.url}/odd`, { ...limits, fetch: local }).catch((e: unknown) => e);
    expect((err as FetchError).code).toBe('network');
  });

  it('answers a 304 without a body', async () => {
    internal.put('/unchanged', { body: '', status: 304 });
    const res = await fetchText(`${internal.url}/unchanged`, { ...limits, fetch: local });
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
  });
});
