import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import type { Engine } from '../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../engine/helpers/engine-fixtures';

const world = fakeWorld();
let engine: Engine;
let base: string;
const open: AbortController[] = [];

beforeAll(async () => {
  ({ engine, base } = await startNewsEngine(world, {
    channelManager: {
      getChannels: () => [
        { id: 'news', name: 'News' },
        { id: 'sport', name: 'Sport' },
      ],
    },
    sessionEventStream: true,
    eventStreamMaxClientsPerChannel: 2,
    eventStreamMaxClients: 3,
  }));
});

afterAll(async () => {
  for (const abort of open) abort.abort();
  await engine.stop();
});

async function openStream(channel: string): Promise<Response> {
  const abort = new AbortController();
  open.push(abort);
  return fetch(`${base}/eventstream/${channel}`, { signal: abort.signal });
}

describe('event streams', () => {
  it('refuses a channel its stream over the per-channel cap with a retryable 503', async () => {
    expect((await openStream('news')).status).toBe(200);
    expect((await openStream('news')).status).toBe(200);
    const third = await openStream('news');
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).not.toBeNull();
    expect(await third.json()).toMatchObject({ code: 'too_many_event_streams' });
  });

  it('refuses any stream over the process cap, and opens one again once a client leaves', async () => {
    expect((await openStream('sport')).status).toBe(200);
    expect((await openStream('sport')).status).toBe(503);
    open[0]!.abort();
    await waitFor(
      async () => {
        const res = await openStream('sport');
        return res.status;
      },
      (status) => status === 200,
      { what: 'a stream slot to free up' },
    );
  });
});
