/**
 * Channel status end to end (docs/design.md "Channel status"): the engine plays the channels, its
 * status tracker writes what it sees next to the playout log, and the channel and schedule APIs show
 * it on every channel they return. Real local cloud, real engine, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../core/aws';
import { dynamoStatusReader, dynamoStatusWriter } from '../../core/channel-status/status-store';
import { tableName, tables } from '../../core/resources';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';

let system: RunningSystem;
let token: string;
const jwt = () => ({ 'x-jwt': `Bearer ${token}`, 'content-type': 'application/json' });

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent' },
    services: ['schedule', 'engine', 'channel'],
  });
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Acme', email: 'status@acme.test' }),
  });
  token = ((await res.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

interface Listed {
  name: string;
  status: string;
  statusReason?: string;
  statusSince?: string;
}

async function createLoop(name: string, url: string) {
  const res = await fetch(`${system.urls.channel}/channel`, {
    method: 'POST',
    headers: jwt(),
    body: JSON.stringify({ name, type: 'Loop', url }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Listed & { warnings?: { field: string }[] };
}

const listed = async (name: string) => {
  const res = await fetch(`${system.urls.channel}/channel`, { headers: jwt() });
  return ((await res.json()) as Listed[]).find((c) => c.name === name);
};

describe('the channel API', () => {
  it('shows a new channel as starting, then on air once the engine plays it', async () => {
    const created = await createLoop('status-good', `${system.urls.engine}/demo/master.m3u8`);
    expect(created.status).toBe('starting');
    const seen = await waitFor(
      () => listed('status-good'),
      (c) => c?.status === 'on_air',
      { timeoutMs: 30_000, what: 'status-good on air' },
    );
    expect(seen?.statusReason).toBeUndefined();
    expect(Date.parse(seen?.statusSince ?? '')).toBeGreaterThan(0);
  });

  it('flags a channel whose source answers 404: on slate, source unreachable', async () => {
    await createLoop('status-404', `${system.urls.engine}/demo/no-such/master.m3u8`);
    const seen = await waitFor(
      () => listed('status-404'),
      (c) => c?.status === 'on_slate',
      { timeoutMs: 30_000, what: 'status-404 on slate' },
    );
    expect(seen?.statusReason).toBe('source_unreachable');
  });

  it('flags a channel whose source is not HLS: on slate, not_hls', async () => {
    await createLoop('status-json', `${system.urls.channel}/openapi.json`);
    const seen = await waitFor(
      () => listed('status-json'),
      (c) => c?.status === 'on_slate',
      { timeoutMs: 30_000, what: 'status-json on slate' },
    );
    expect(seen?.statusReason).toBe('not_hls');
  });
});

describe('the schedule API', () => {
  it('shows a status on every channel it returns', async () => {
    const api = `${system.urls.schedule}/channels`;
    const created = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'status-tv', title: 'Status TV' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: 'starting' });
    expect(await (await fetch(`${api}/status-tv`)).json()).toMatchObject({ status: 'starting' });
    const list = (await (await fetch(api)).json()) as { id: string; status: string }[];
    expect(list.find((c) => c.id === 'status-tv')).toMatchObject({ status: 'starting' });
  });
});

describe('the status store', () => {
  const table = () => tableName(tables.playoutLog);

  it('never lets an older item put back an older status', async () => {
    const writer = dynamoStatusWriter(documentClient(), table());
    expect(await writer.write('order', { status: 'on_slate', itemSeq: 7, sinceMs: 7000 })).toBe(true);
    expect(await writer.write('order', { status: 'on_air', itemSeq: 6, sinceMs: 6000 })).toBe(false);
    const read = await dynamoStatusReader(documentClient(), table()).read(['order', 'none']);
    expect([...read]).toEqual([
      ['order', { status: 'on_slate', itemSeq: 7, sinceMs: 7000, writtenMs: expect.any(Number) }],
    ]);
  });

  it('fills in the reason another task could not know, and never takes one away', async () => {
    const writer = dynamoStatusWriter(documentClient(), table());
    await writer.write('fill', { status: 'on_slate', itemSeq: 3, sinceMs: 3000 });
    expect(
      await writer.write('fill', {
        status: 'on_slate',
        reason: 'webhook_failing',
        itemSeq: 3,
        sinceMs: 3000,
      }),
    ).toBe(true);
    expect(await writer.write('fill', { status: 'on_slate', itemSeq: 3, sinceMs: 3000 })).toBe(false);
    const read = await dynamoStatusReader(documentClient(), table()).read(['fill']);
    expect(read.get('fill')?.reason).toBe('webhook_failing');
  });
});
