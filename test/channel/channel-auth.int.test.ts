/**
 * The channel API's authentication end to end: tokens missing, forged, expired, signed with another key
 * or algorithm, and each stage's tokens refused by the other (the local system, over HTTP).
 */
import { base64url, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { FileKeyStore } from '../../core/auth/signing-key';
import { TokenService } from '../../core/auth/tokens';
import { issueOperatorToken } from '../../functions/channel/operator-token';
import { useChannelApi } from './support/channel-api-system';

const { ctx, post, get, loop, trialToken } = useChannelApi();

describe('authentication', () => {
  const claims = { env: 'test', plan: 'trial', maxChannels: 3 };
  async function signWith(key: Parameters<SignJWT['sign']>[0], alg: string, exp: number) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg })
      .setIssuer('onair')
      .setAudience('onair-channel-api')
      .setSubject('tforged')
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key);
  }

  it('refuses a request without a token', async () => {
    const res = await fetch(`${ctx.api}/channel`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a token signed with another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await signWith(privateKey, 'ES256', Math.floor(Date.now() / 1000) + 600);
    expect((await get('/channel', token)).status).toBe(401);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(
      JSON.stringify({
        ...claims,
        iss: 'onair',
        aud: 'onair-channel-api',
        sub: 'tforged',
        exp: Math.floor(Date.now() / 1000) + 600,
      }),
    );
    expect((await get('/channel', `${header}.${payload}.`)).status).toBe(401);
  });

  it('refuses a forged token (a valid token with its payload edited)', async () => {
    const { token } = await trialToken();
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = base64url.encode(JSON.stringify({ ...payload, maxChannels: 1000 }));
    expect((await get('/channel', `${h}.${forged}.${s}`)).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const tokens = await TokenService.fromKeys(
      (await new FileKeyStore(ctx.system.env.JWT_KEY_FILE!).read())!,
    );
    const { token } = await tokens.issue(
      { tenant: 'expiry', env: 'test', plan: 'trial', maxChannels: 3 },
      -60,
    );
    const res = await get('/channel', token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'token expired' });
  });

  it('refuses a token signed with another algorithm (HS256)', async () => {
    const token = await signWith(
      new TextEncoder().encode('x'.repeat(32)),
      'HS256',
      Math.floor(Date.now() / 1000) + 600,
    );
    expect((await get('/channel', token)).status).toBe(401);
  });

  it('accepts an operator token in production and refuses a trial token there', async () => {
    const operator = await issueOperatorToken({ tenant: 'acme', maxChannels: 50, env: 'prod', days: 30 });
    const created = await post('/channel', loop('acme-prod-news'), operator.token, ctx.prod.url);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 'acme-acme-prod-news' });
    const { token } = await trialToken();
    const refused = await get('/channel', token, ctx.prod.url);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'trial_not_allowed' });
  });

  it('refuses a production operator token in the test environment', async () => {
    const operator = await issueOperatorToken({ tenant: 'acme', maxChannels: 50, env: 'prod', days: 30 });
    const res = await get('/channel', operator.token);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'wrong_environment' });
  });
});
