/**
 * The schedule service's channel table on DynamoDB Local: a create is answered by what the table holds,
 * including when the SDK retried a put whose first attempt landed but whose answer timed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoScheduleStores, type ScheduleStores } from '../../functions/schedule/deps';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';

let cloud: LocalCloud;
let stores: ScheduleStores;
const t0 = Date.parse('2026-11-27T02:00:00Z');

beforeAll(async () => {
  cloud = await startTestCloud();
  stores = dynamoScheduleStores();
});
afterAll(async () => {
  await cloud?.stop();
});

describe('creating a schedule channel', () => {
  it('answers created when a retried create finds its own first attempt stored', async () => {
    const channel = { id: 'retried', tenant: 'acme.test', title: 'Retried' };
    expect(await stores.channels.create(channel, t0)).toBe(true);
    // What the SDK's retry of a put whose first answer timed out sends: the same write again.
    expect(await stores.channels.create(channel, t0)).toBe(true);
    expect((await stores.channels.get('acme.test', 'retried'))?.createdAt).toBe(t0);
  });

  it('refuses a second channel of the same id, made later or under another title', async () => {
    const channel = { id: 'taken', tenant: 'acme.test', title: 'Taken' };
    expect(await stores.channels.create(channel, t0)).toBe(true);
    expect(await stores.channels.create(channel, t0 + 1)).toBe(false);
    expect(await stores.channels.create({ ...channel, title: 'Other' }, t0)).toBe(false);
  });
});
