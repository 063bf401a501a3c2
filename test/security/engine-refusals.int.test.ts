/**
 * The engine with the host's guarded fetch, loopback targets only. 127.0.0.1 is the internal network
 * an attacker aims at; 127.0.0.2 stands for the public internet (the test's address decision treats
 * it as public). In deployment mode every channel whose VOD or webhook leads to 127.0.0.1 plays the
 * slate, 127.0.0.1 is never reached, and the public event stream shows a generic message only. With
 * the local switch (ALLOW_PRIVATE_URLS) the same channels play their VOD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../core/fetch/address-policy';
import { guardedFetch } from '../../core/fetch/guarded-fetch';
import { waitFor } from '../../core/wait-for';
import type { OnairChannelOptions } from '../../engine-container/host/channel-table-manager';
import { OnairAssetManager } from '../../engine-container/host/onair-asset-manager';
import { Engine } from '../../engine-container/src/engine';
import type { EngineEvent } from '../../engine-container/src/events';
import type { Channel, VodRequest } from '../../engine-container/src/types';
import { mediaPlaylist } from '../engine/helpers/playlists';
import { type EventStreamReader, readEventStream } from './support/event-stream-reader';
import { type LoopbackOrigin, startLoopbackOrigin, treatAsPublic } from './support/loopback-origin';

process.env.LOG_LEVEL ??= 'silent';
const PUBLIC_STAND_IN = '127.0.0.2';
let internal: LoopbackOrigin;
let outside: LoopbackOrigin;

beforeAll(async () => {
  [internal, outside] = await Promise.all([
    startLoopbackOrigin('127.0.0.1'),
    startLoopbackOrigin(PUBLIC_STAND_IN),
  ]);
  const vod = { body: mediaPlaylist([2000, 2000, 2000, 2000, 2000], { prefix: 'vod' }) };
  const answer = (hlsUrl: string) => ({ body: JSON.stringify({ id: 'v1', title: 'V', hlsUrl }) });
  internal.put('/vod.m3u8', vod);
  internal.put('/hook', answer(`${internal.url}/vod.m3u8`));
  outside.put('/slate.m3u8', { body: mediaPlaylist([2000, 2000], { prefix: 'slate' }) });
  outside.put('/to-internal', { redirect: `${internal.url}/vod.m3u8` });
  outside.put('/hook', answer(`${internal.url}/vod.m3u8`));
});
afterAll(async () => {
  await Promise.all([internal?.close(), outside?.close()]);
});

/** Every way a channel can lead the engine to 127.0.0.1. */
function channels(): Record<string, Pick<OnairChannelOptions, 'type' | 'url'>> {
  const port = internal.port;
  return {
    'loop-literal': { type: 'Loop', url: `http://127.0.0.1:${port}/vod.m3u8` },
    'loop-name': { type: 'Loop', url: `http://internal.example.test:${port}/vod.m3u8` },
    'loop-redirect': { type: 'Loop', url: `http://public.example.test:${outside.port}/to-internal` },
    'hook-answer': { type: 'WebHook', url: `http://public.example.test:${outside.port}/hook` },
    'hook-internal': { type: 'WebHook', url: `http://127.0.0.1:${port}/hook` },
  };
}
const CREDENTIALS = 'loop-login';
/** Known when the tests are collected, before the origins (and their ports) exist. */
const LEADS = ['loop-literal', 'loop-name', 'loop-redirect', 'hook-answer', 'hook-internal'];

interface Running {
  engine: Engine;
  base: string;
  streams: Map<string, EventStreamReader>;
  events: EngineEvent[];
  stop(): Promise<void>;
}

/** The engine as the host wires it (OnairAssetManager, one guarded fetch), on loopback. */
async function startEngine(allowPrivate: boolean): Promise<Running> {
  const names: Record<string, string[]> = {
    'public.example.test': [PUBLIC_STAND_IN],
    'internal.example.test': ['127.0.0.1'],
  };
  const fetch = guardedFetch({
    allowPrivate,
    resolve: async (host) => names[host] ?? [],
    isBlocked: treatAsPublic(PUBLIC_STAND_IN, isBlockedAddress),
  });
  const list: Channel[] = Object.entries({
    ...channels(),
    [CREDENTIALS]: { type: 'Loop', url: `http://user:secret@127.0.0.1:${internal.port}/vod.m3u8` },
  }).map(([id, o]) => ({ id, name: id, options: { ...o, tenant: 't1' } }));
  const assets = new OnairAssetManager({ channel: (id) => list.find((c) => c.id === id), fetch });
  // Nothing is planned before the event streams are open, so none misses the first events.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const engine = new Engine(
    { getNextVod: async (req: VodRequest) => gate.then(() => assets.getNextVod(req)) },
    {
      port: 0,
      host: '127.0.0.1',
      fetch,
      defaultSlateUri: `http://public.example.test:${outside.port}/slate.m3u8`,
      channelManager: { getChannels: () => list },
      sessionEventStream: true,
    },
  );
  const events: EngineEvent[] = [];
  engine.events.subscribe((e) => events.push(e));
  await engine.start();
  const base = `http://127.0.0.1:${engine.port}`;
  const streams = new Map<string, EventStreamReader>();
  for (const { id } of list) streams.set(id, await readEventStream(`${base}/eventstream/${id}`));
  await waitFor(() => [...streams.values()].every((s) => s.text().startsWith(': channel')), Boolean, {
    what: 'every event stream open',
  });
  open();
  return {
    engine,
    base,
    streams,
    events,
    stop: async () => {
      for (const s of streams.values()) s.close();
      await engine.stop();
    },
  };
}

const playlist = async (run: Running, id: string) =>
  (await fetch(`${run.base}/channels/${id}/0.m3u8`)).text();

/** What must never reach a viewer: the internal address, its port, credentials, fetch error text. */
const leaks = (text: string): string[] =>
  [
    '127.0.0.1',
    `:${internal.port}`,
    'secret',
    'internal.example.test',
    'ECONNREFUSED',
    'not a public address',
    'with credentials',
    'returned',
  ].filter((needle) => text.includes(needle));

describe('the engine in deployment mode', () => {
  let run: Running;
  beforeAll(async () => {
    run = await startEngine(false);
  });
  afterAll(() => run?.stop());

  it.each([...LEADS, CREDENTIALS])('plays the slate for %s', async (id) => {
    const text = await waitFor(
      () => playlist(run, id),
      (t) => t.includes('slate0.ts'),
      { what: `${id} on slate` },
    );
    expect(text).not.toContain('vod0.ts');
  });

  it.each([...LEADS, CREDENTIALS])(
    'streams a generic vod_error for %s, with no internal detail',
    async (id) => {
      const stream = run.streams.get(id)!;
      const text = await waitFor(
        () => stream.text(),
        (t) => t.includes('event: vod_error') && t.includes('event: slate_inserted'),
        { what: `${id}: vod_error and slate_inserted on the stream` },
      );
      expect(text).toMatch(
        /"message":"the (VOD could not be loaded \(vod_unavailable\)|webhook could not be called \(webhook_unavailable\))"/,
      );
      expect(leaks(text)).toEqual([]);
    },
  );

  it('never reaches the internal address', () => {
    expect(internal.requests).toEqual([]);
  });

  it('keeps the detail for the log: in-process events still say what failed', () => {
    const errors = run.events.filter((e) => e.type === 'vod_error').map((e) => String(e.data.message));
    expect(errors.some((m) => m.includes('not a public address'))).toBe(true);
  });
});

describe('the engine with private URLs allowed (npm start)', () => {
  let run: Running;
  beforeAll(async () => {
    run = await startEngine(true);
  });
  afterAll(() => run?.stop());

  it.each(LEADS)('plays the VOD of %s', async (id) => {
    await waitFor(
      () => playlist(run, id),
      (t) => t.includes('vod0.ts'),
      { what: `${id} playing its VOD` },
    );
  });

  it('still refuses a URL with credentials, and streams no credentials', async () => {
    await waitFor(
      () => playlist(run, CREDENTIALS),
      (t) => t.includes('slate0.ts'),
      { what: 'slate' },
    );
    const text = await waitFor(
      () => run.streams.get(CREDENTIALS)!.text(),
      (t) => t.includes('event: vod_error'),
    );
    expect(text).not.toContain('secret');
  });
});
