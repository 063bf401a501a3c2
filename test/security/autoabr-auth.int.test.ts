/**
 * AutoABR with AUTOABR_REQUIRE_AUTH=true on the local cloud: the channel service's keys (a key file,
 * as `npm start` uses) verify `x-jwt`; only operator tokens carrying the autoabr scope get in, and each
 * tenant sees only its own jobs and results.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileKeyStore, loadSigningKeys, newSigningKey } from '../../core/auth/signing-key';
import { type Principal, TokenService } from '../../core/auth/tokens';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { buildApiDeps } from '../../functions/autoabr/entry/build-api-deps';
import { issueOperatorToken } from '../../functions/channel/operator-token';
import type { LocalCloud } from '../../local/cloud';
import type { Gateway } from '../../local/gateway';
import { startApi, startCloud } from '../autoabr/support/cloud';

let cloud: LocalCloud;
let api: Gateway;
let deps: ReturnType<typeof buildApiDeps>;
let bucket: string;
let keyFile: string;
const tokens: Record<string, string> = {};

interface Body {
  code?: string;
  id?: string;
  workers?: { id: string }[];
}
const asBody = (b: unknown) => b as Body;

const operator = (tenant: string, autoabr: boolean, env: 'test' | 'prod' = 'test') =>
  issueOperatorToken({ tenant, maxChannels: 5, env, days: 1, autoabr }, new FileKeyStore(keyFile)).then(
    (t) => t.token,
  );

const call = (method: string, path: string, token?: string, body?: unknown) =>
  fetch(`${api.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(token ? { 'x-jwt': `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });

const job = (name: string) => ({
  job: {
    name,
    reference: `s3://${bucket}/refs/clip.mp4`,
    models: ['HD'],
    bitrates: [500000],
    resolutions: [{ width: 640, height: 360 }],
  },
});

beforeAll(async () => {
  keyFile = join(mkdtempSync(join(tmpdir(), 'autoabr-auth-')), 'jwt.jwk.json');
  // No dispatcher runs here: jobs stay QUEUED.
  cloud = await startCloud({ AUTOABR_REQUIRE_AUTH: 'true', JWT_KEY_FILE: keyFile, ONAIR_STAGE: 'test' });
  bucket = cloud.env.BUCKET_AUTOABR!;
  deps = buildApiDeps(); // the real wiring: channelTokenVerifier('test') over JWT_KEY_FILE
  api = await startApi(createAutoabrRoutes(() => deps));
  const service = await TokenService.fromKeys(await loadSigningKeys(new FileKeyStore(keyFile)));
  const trial: Principal = { tenant: 'ttrial01', env: 'test', plan: 'trial', maxChannels: 3 };
  tokens.trial = (await service.issue(trial, 3600)).token;
  // A trial token that claims the scope anyway: the plan still rules it out.
  tokens.trialScoped = (await service.issue(trial, 3600, { scope: 'autoabr' })).token;
  tokens.plain = await operator('acme', false);
  tokens.a = await operator('tenant-a', true);
  tokens.b = await operator('tenant-b', true);
  tokens.prod = await operator('tenant-a', true, 'prod');
  const forger = await TokenService.fromJwk(await newSigningKey());
  tokens.forged = (
    await forger.issue({ tenant: 'tenant-a', env: 'test', plan: 'operator', maxChannels: 5 }, 3600, {
      scope: 'autoabr',
    })
  ).token;
}, 180_000);

afterAll(async () => {
  await api?.close();
  await cloud?.stop();
});

describe('AutoABR with AUTOABR_REQUIRE_AUTH=true', () => {
  it('keeps the health check open', async () => {
    expect((await call('GET', '/')).status).toBe(200);
  });

  it('refuses every other route without a token (401)', async () => {
    for (const [method, path] of [
      ['POST', '/autoabr'],
      ['GET', '/autoabr'],
      ['DELETE', '/autoabr/cache'],
      ['GET', '/autoabr/00000000-0000-4000-8000-000000000000'],
      ['GET', '/autoabr/result/x'],
      ['GET', '/autoabr/result/x/'],
      ['GET', '/autoabr/result/x/ladder'],
      ['GET', '/autoabr/result/x/HD'],
    ] as const) {
      const res = await call(method, path, undefined, method === 'POST' ? job('x') : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json().then(asBody)).code).toBe('unauthorized');
    }
    const malformed = await fetch(`${api.url}/autoabr`, { headers: { 'x-jwt': 'Token abc' } });
    expect(malformed.status).toBe(401);
    expect((await call('GET', '/autoabr', 'not.a.jwt')).status).toBe(401);
  });

  it('refuses a token signed by another key (401)', async () => {
    expect((await call('GET', '/autoabr', tokens.forged)).status).toBe(401);
    expect((await call('POST', '/autoabr', tokens.forged, job('forged'))).status).toBe(401);
  });

  it('refuses trial tokens, even one claiming the scope (403)', async () => {
    for (const token of [tokens.trial, tokens.trialScoped]) {
      const res = await call('POST', '/autoabr', token, job('trial'));
      expect(res.status).toBe(403);
      expect((await res.json().then(asBody)).code).toBe('autoabr_not_allowed');
    }
  });

  it('refuses an operator token without the autoabr scope (403)', async () => {
    const res = await call('GET', '/autoabr', tokens.plain);
    expect(res.status).toBe(403);
    expect((await res.json().then(asBody)).code).toBe('autoabr_not_allowed');
    expect((await call('DELETE', '/autoabr/cache', tokens.plain)).status).toBe(403);
  });

  it('refuses a token of another environment (403)', async () => {
    const res = await call('GET', '/autoabr', tokens.prod);
    expect(res.status).toBe(403);
    expect((await res.json().then(asBody)).code).toBe('wrong_environment');
  });

  it('lets a scoped operator token in (201, 200)', async () => {
    const created = await call('POST', '/autoabr', tokens.a, job('welcome'));
    expect(created.status).toBe(201);
    const { id } = await created.json().then(asBody);
    expect((await call('GET', `/autoabr/${id}`, tokens.a)).status).toBe(200);
    expect((await call('GET', '/autoabr', tokens.a)).status).toBe(200);
    expect((await call('DELETE', '/autoabr/cache', tokens.a)).status).toBe(200);
  });

  it("keeps tenants apart: B cannot list, read or see the results of A's job (404)", async () => {
    const created = await call('POST', '/autoabr', tokens.a, job('shared-name'));
    expect(created.status).toBe(201);
    const { id } = await created.json().then(asBody);

    // A's job records its tenant and writes under A's own prefix.
    const stored = await deps.jobs.get(id!);
    expect(stored?.tenant).toBe('tenant-a');
    expect(stored?.pipeline.resultPrefix).toBe('tenant-a/results');

    const listedByA = (await (await call('GET', '/autoabr', tokens.a)).json().then(asBody)).workers!.map(
      (w: { id: string }) => w.id,
    );
    expect(listedByA).toContain(id);
    const listedByB = (await (await call('GET', '/autoabr', tokens.b)).json().then(asBody)).workers!.map(
      (w: { id: string }) => w.id,
    );
    expect(listedByB).not.toContain(id);

    const read = await call('GET', `/autoabr/${id}`, tokens.b);
    expect(read.status).toBe(404);
    expect((await call('GET', '/autoabr/result/shared-name/', tokens.b)).status).toBe(404);
    expect((await call('GET', '/autoabr/result/shared-name/HD', tokens.b)).status).toBe(404);
    expect((await call('GET', '/autoabr/result/shared-name/HD?format=svg', tokens.b)).status).toBe(404);
    expect((await call('GET', '/autoabr/result/shared-name/ladder', tokens.b)).status).toBe(404);

    const ownResults = await call('GET', '/autoabr/result/shared-name/', tokens.a);
    expect(ownResults.status).toBe(200);
    expect((await ownResults.json().then(asBody)).id).toBe(id);

    // B submitting a job of the same name gets a job (and a prefix) of its own; A's results stay A's.
    const bCreated = await call('POST', '/autoabr', tokens.b, job('shared-name'));
    expect(bCreated.status).toBe(201);
    const bId = (await bCreated.json().then(asBody)).id;
    expect((await deps.jobs.get(bId!))?.pipeline.resultPrefix).toBe('tenant-b/results');
    expect((await (await call('GET', '/autoabr/result/shared-name/', tokens.a)).json().then(asBody)).id).toBe(
      id,
    );
    expect((await (await call('GET', '/autoabr/result/shared-name/', tokens.b)).json().then(asBody)).id).toBe(
      bId,
    );
    expect((await call('GET', `/autoabr/${bId}`, tokens.a)).status).toBe(404);
  });
});
