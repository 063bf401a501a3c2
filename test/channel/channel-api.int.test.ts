/**
 * The channel service end to end: the real local cloud (DynamoDB Local + fauxqs), the Lambda handler
 * behind the local gateway, driven over HTTP exactly as a user would.
 */
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelHandler } from '../../functions/channel/channel-api';
import { channelConfigFromEnv } from '../../functions/channel/config';
import { type Gateway, startGateway } from '../../local/gateway';
import { useChannelApi } from './support/channel-api-system';

const { ctx, post, get, del, loop, trialToken } = useChannelApi();

describe('tokens', () => {
  it('issues a trial token with its expiry, tenant and limit', async () => {
    const res = await post('/token', { company: 'Acme', email: 'first@acme.test' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { token: string; expiresAt: string };
    expect(body).toMatchObject({ environment: 'test', maxChannels: 3 });
    expect(typeof body.token).toBe('string');
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('rate-limits token issuance per email', async () => {
    const email = { company: 'Acme', email: 'limited@acme.test' };
    expect((await post('/token', email)).status).toBe(201);
    expect((await post('/token', email)).status).toBe(201);
    const third = await post('/token', email);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await third.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('names the field of an invalid token request', async () => {
    const res = await post('/token', { company: 'Acme', email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'email' });
  });

  it('has no /token in production', async () => {
    const res = await post('/token', { company: 'Acme', email: 'p@acme.test' }, undefined, ctx.prod.url);
    expect(res.status).toBe(404);
  });

  it('publishes the public current and next signing keys', async () => {
    const res = await fetch(`${ctx.api}/.well-known/jwks.json`);
    const jwks = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(2);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: expect.any(String) });
      expect(key.d).toBeUndefined();
    }
  });
});

describe('channels', () => {
  it('creates, lists and deletes a channel', async () => {
    const { token, tenant } = await trialToken();
    const created = await post(
      '/channel',
      { ...loop('news'), opts: { preroll: { url: 'https://ads.example.com/p.m3u8', duration: '6000' } } },
      token,
    );
    expect(created.status).toBe(201);
    const playback = `${ctx.system.env.PLAYBACK_BASE_URL}/channels/news/master.m3u8`;
    expect(await created.json()).toEqual({
      id: `${tenant}-news`,
      name: 'news',
      type: 'Loop',
      url: 'https://vod.example.com/a/master.m3u8',
      opts: { preroll: { url: 'https://ads.example.com/p.m3u8', duration: '6000' } },
      playback,
      status: 'starting',
      // Nothing answers at these names here: accepted, with a warning per field.
      warnings: [
        { field: 'url', code: 'unavailable', message: 'url does not answer as HLS (unavailable)' },
        {
          field: 'opts.preroll.url',
          code: 'unavailable',
          message: 'opts.preroll.url does not answer as HLS (unavailable)',
        },
      ],
    });
    expect(await (await get('/channel', token)).json()).toEqual([
      { id: `${tenant}-news`, name: 'news', type: 'Loop', url: playback, status: 'starting' },
    ]);
    const deleted = await del(`/channel/${tenant}-news`, token);
    expect(deleted.status).toBe(204);
    expect(await (await get('/channel', token)).json()).toEqual([]);
  });

  it('lets exactly 3 of 10 concurrent creates with one trial token succeed', async () => {
    const { token } = await trialToken();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post('/channel', loop(`race-${i}`), token)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(7);
    const refused = results.find((r) => r.status === 403)!;
    expect(await refused.json()).toMatchObject({ code: 'channel_limit' });
    expect(await (await get('/channel', token)).json()).toHaveLength(3);
  });

  it('frees a trial slot when a channel is deleted', async () => {
    const { token, tenant } = await trialToken();
    for (const n of ['s1', 's2', 's3'])
      expect((await post('/channel', loop(`slot-${tenant}-${n}`), token)).status).toBe(201);
    expect((await post('/channel', loop(`slot-${tenant}-s4`), token)).status).toBe(403);
    expect((await del(`/channel/${tenant}-slot-${tenant}-s1`, token)).status).toBe(204);
    expect((await post('/channel', loop(`slot-${tenant}-s4`), token)).status).toBe(201);
  });

  it("keeps tenants apart: another tenant's channel is invisible and cannot be deleted", async () => {
    const a = await trialToken();
    const b = await trialToken();
    expect((await post('/channel', loop(`iso-${a.tenant}`), a.token)).status).toBe(201);
    expect(await (await get('/channel', b.token)).json()).toEqual([]);
    expect((await del(`/channel/${a.tenant}-iso-${a.tenant}`, b.token)).status).toBe(404);
    expect((await get('/channel', a.token)).status).toBe(200);
    expect(await (await get('/channel', a.token)).json()).toHaveLength(1);
  });

  it('refuses a duplicate name with 409, even across tenants, and leaves the limit untouched', async () => {
    const a = await trialToken();
    const b = await trialToken();
    expect((await post('/channel', loop(`dup-${a.tenant}`), a.token)).status).toBe(201);
    const again = await post('/channel', loop(`dup-${a.tenant}`), b.token);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'conflict' });
    for (const n of [1, 2, 3])
      expect((await post('/channel', loop(`own-${b.tenant}-${n}`), b.token)).status).toBe(201);
  });

  it('answers 404 for an unknown channel id', async () => {
    const { token, tenant } = await trialToken();
    expect((await del(`/channel/${tenant}-nothing-here`, token)).status).toBe(404);
  });

  it('deletes a channel by its id of the older form <tenant>.<name>', async () => {
    const { token, tenant } = await trialToken();
    expect((await post('/channel', loop(`old-${tenant}`), token)).status).toBe(201);
    expect((await del(`/channel/${tenant}.old-${tenant}`, token)).status).toBe(204);
    expect(await (await get('/channel', token)).json()).toEqual([]);
  });

  it('puts a channel event on the queue for every create and delete', async () => {
    const { token, tenant } = await trialToken();
    await post('/channel', loop(`ev-${tenant}`), token);
    await del(`/channel/${tenant}-ev-${tenant}`, token);
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const seen: { type: string; channelId: string }[] = [];
    for (let i = 0; i < 10 && seen.filter((e) => e.channelId === `${tenant}-ev-${tenant}`).length < 2; i++) {
      const res = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: ctx.system.env.QUEUE_CHANNEL_EVENTS,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
        }),
      );
      for (const m of res.Messages ?? []) seen.push(JSON.parse(m.Body!));
    }
    const mine = seen.filter((e) => e.channelId === `${tenant}-ev-${tenant}`).map((e) => e.type);
    expect(mine).toEqual(['channel.created', 'channel.deleted']);
    sqs.destroy();
  });
});

describe('the injected clock', () => {
  let clock = 0;
  let timed: Gateway;
  beforeAll(async () => {
    timed = await startGateway(
      'channel-clock',
      createChannelHandler(channelConfigFromEnv(), { now: () => clock }),
      0,
    );
  });
  afterAll(() => timed?.close());

  const tokenAt = (iso: string, email: string) => {
    clock = Date.parse(iso);
    return post('/token', { company: 'Acme', email }, undefined, timed.url);
  };

  it('dates a trial token to expire 30 days after its clock', async () => {
    const res = await tokenAt('2031-03-01T12:00:00Z', 'dated@acme.test');
    expect(await res.json()).toMatchObject({ expiresAt: '2031-03-31T12:00:00.000Z' });
  });

  it('refuses its own token once its clock passes the expiry', async () => {
    const { token } = (await (await tokenAt('2031-04-01T00:00:00Z', 'expiring@acme.test')).json()) as {
      token: string;
    };
    expect((await get('/channel', token, timed.url)).status).toBe(200);
    clock = Date.parse('2031-05-01T00:00:01Z');
    const res = await get('/channel', token, timed.url);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'token expired' });
  });

  it('counts the email limit per day of its clock and says how long until midnight', async () => {
    const email = 'midnight@acme.test';
    expect((await tokenAt('2031-06-01T23:59:00Z', email)).status).toBe(201);
    expect((await tokenAt('2031-06-01T23:59:10Z', email)).status).toBe(201);
    const refused = await tokenAt('2031-06-01T23:59:30Z', email);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await tokenAt('2031-06-02T00:00:00Z', email)).status).toBe(201);
  });
});

describe('validation', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await trialToken());
  });

  it.each([
    ['bad JSON', '{"name": ', 'body'],
    ['a missing name', { type: 'Loop', url: 'https://x.example/a.m3u8' }, 'name'],
    ['a name with capitals', { name: 'News', type: 'Loop', url: 'https://x.example/a.m3u8' }, 'name'],
    [
      'a name of 64 characters',
      { name: 'a'.repeat(64), type: 'Loop', url: 'https://x.example/a.m3u8' },
      'name',
    ],
    ['a number as name', { name: 42, type: 'Loop', url: 'https://x.example/a.m3u8' }, 'name'],
    ['an unknown type', { name: 'x', type: 'Live', url: 'https://x.example/a.m3u8' }, 'type'],
    ['a non-http url', { name: 'x', type: 'Loop', url: 'ftp://x.example/a.m3u8' }, 'url'],
    [
      'a non-numeric preroll duration',
      { ...loop('x'), opts: { preroll: { url: 'https://x.example/p.m3u8', duration: 'six' } } },
      'opts.preroll.duration',
    ],
    ['a preroll without url', { ...loop('x'), opts: { preroll: { duration: '6000' } } }, 'opts.preroll.url'],
    [
      'an unknown preroll delivery',
      {
        ...loop('x'),
        opts: { preroll: { url: 'https://x.example/p.m3u8', duration: '1', delivery: 'ssai' } },
      },
      'opts.preroll.delivery',
    ],
    [
      'a preroll on a WebHook channel',
      {
        name: 'x',
        type: 'WebHook',
        url: 'https://x.example/hook',
        opts: { preroll: { url: 'https://x.example/p.m3u8', duration: '1' } },
      },
      'opts.preroll',
    ],
    ['an unknown field', { ...loop('x'), colour: 'red' }, 'colour'],
  ])('refuses %s with 400 naming the field', async (_what, body, field) => {
    const res = await post('/channel', body, token);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', field });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await post(
      '/channel',
      { ...loop('big'), url: `https://x.example/${'a'.repeat(20_000)}` },
      token,
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });
});
