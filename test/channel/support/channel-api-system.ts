/**
 * The channel API on the real local system (DynamoDB Local, SQS stand-in), a test stage and a production
 * deployment of the same handler sharing its keys and tables, with the requests the tests make.
 * Call useChannelApi() at the top of a test file: it starts the system before the file's tests.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createChannelHandler } from '../../../functions/channel/channel-api';
import { channelConfigFromEnv } from '../../../functions/channel/config';
import { type Gateway, startGateway } from '../../../local/gateway';
import { type RunningSystem, startSystem } from '../../../local/system';
import { sharedDynamoDb } from '../../support/run/shared-dynamodb';

export interface ChannelApi {
  system: RunningSystem;
  /** The test stage's base URL. */
  api: string;
  /** A production deployment of the same handler. */
  prod: Gateway;
}

export function useChannelApi() {
  const ctx = {} as ChannelApi;
  beforeAll(async () => {
    ctx.system = await startSystem({
      sharedDynamoDb: sharedDynamoDb(),
      ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
      env: { TOKEN_LIMIT_PER_EMAIL_PER_DAY: '2', TOKEN_LIMIT_PER_IP_PER_HOUR: '1000', LOG_LEVEL: 'silent' },
      services: ['channel'],
    });
    ctx.api = ctx.system.urls.channel!;
    ctx.prod = await startGateway(
      'channel-prod',
      createChannelHandler({ ...channelConfigFromEnv(), stage: 'prod' }),
      0,
    );
  });
  afterAll(async () => {
    await ctx.prod?.close();
    await ctx.system?.stop();
  });

  const post = (path: string, body: unknown, token?: string, base?: string) =>
    fetch(`${base ?? ctx.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-jwt': `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string, token: string, base?: string) =>
    fetch(`${base ?? ctx.api}${path}`, { headers: { 'x-jwt': `Bearer ${token}` } });
  const del = (path: string, token: string) =>
    fetch(`${ctx.api}${path}`, { method: 'DELETE', headers: { 'x-jwt': `Bearer ${token}` } });
  const loop = (name: string) => ({ name, type: 'Loop', url: 'https://vod.example.com/a/master.m3u8' });

  let emailCounter = 0;
  async function trialToken(): Promise<{ token: string; tenant: string }> {
    const res = await post('/token', { company: 'Acme', email: `dev${++emailCounter}@acme.test` });
    expect(res.status).toBe(201);
    return res.json() as Promise<{ token: string; tenant: string }>;
  }

  return { ctx, post, get, del, loop, trialToken };
}
