/**
 * The schedule service's sequence through the rehearsed API (docs/schedule-api.md): a channel, an Atom
 * auto-scheduler over a loopback feed of VODs (the engine container's own demo VOD and slate), run by
 * its EventBridge schedule; today's schedule; a LIVE entry from an ffmpeg `-re` source, which goes on
 * air on the engine container.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../../../core/wait-for';
import { startLiveSource } from '../../../test/support/live-source';
import { waitOnAir } from '../../../test/support/on-air';
import { call } from '../api-client';
import type { Steps } from '../steps';

interface Entry {
  id: string;
  type: string;
  title: string;
  start_time: number;
  end_time: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function scheduleJourney(options: {
  steps: Steps;
  scheduleApi: string;
  engineUrl: string;
  token: string;
  /** Runs the auto-scheduler's EventBridge rule now (the same invocation its timer makes). */
  runAutoScheduler: () => Promise<void>;
  notes: string[];
}): Promise<void> {
  const { steps, engineUrl, token, notes } = options;
  const api = `${options.scheduleApi}/api/v1`;
  const vods = ['demo', 'slate'].map((name) => ({ name, url: `${engineUrl}/${name}/master.m3u8` }));
  const entries = vods
    .map((v) => `<entry><title>${v.name}</title><id>${randomUUID()}</id><link>${v.url}</link></entry>`)
    .join('');
  const feed = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:onair:rehearsal</id><title>rehearsal</title><updated>${iso(Date.now())}</updated>${entries}</feed>`;
  const feedServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/atom+xml' });
    res.end(feed);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  const feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
  const live = await startLiveSource();
  try {
    const channel = await steps.run('schedule: POST /api/v1/channels', () =>
      call<{ playback: string }>(`${api}/channels`, { token, body: { id: 'tv', title: 'TV' } }),
    );
    await steps.run('schedule: POST /api/v1/mrss (an Atom auto-scheduler over a loopback feed)', () =>
      call(`${api}/mrss`, { token, body: { id: 'tv-feed', url: feedUrl, channelId: 'tv' } }),
    );
    await steps.run('schedule: the auto-scheduler runs on its EventBridge rule', () =>
      options.runAutoScheduler(),
    );
    const today = iso(Date.now()).slice(0, 10);
    await steps.run('schedule: GET schedule?date= holds the feed, consecutive', async () => {
      const schedule = await call<Entry[]>(`${api}/channels/tv/schedule?date=${today}`, { token });
      if (schedule.length < 2)
        throw new Error(`schedule has ${schedule.length} entries: ${JSON.stringify(schedule)}`);
      for (let i = 1; i < schedule.length; i++)
        if (schedule[i]!.start_time !== schedule[i - 1]!.end_time)
          throw new Error(`entry ${i} is not consecutive`);
      notes.push(`schedule: ${schedule.length} entries today from the feed`);
    });
    const master = `${engineUrl}${new URL(channel.playback).pathname}`;
    await steps.run('schedule: the channel is on air on the engine container', () =>
      waitOnAir(master, 90_000),
    );
    const start = Date.now() + 15_000;
    await steps.run('schedule: POST a LIVE entry (ffmpeg -re source) starting in 15 s', () =>
      call(`${api}/channels/tv/schedule`, {
        token,
        body: { title: 'Match', type: 'LIVE', url: live.url, start: iso(start), end: iso(start + 60_000) },
      }),
    );
    const liveHost = new URL(live.url).host;
    await steps.run('schedule: the LIVE entry goes on air on the engine container', async () => {
      const media = await waitFor(
        async () => {
          const masterText = await (await fetch(master, { signal: AbortSignal.timeout(5000) })).text();
          const first = masterText.split('\n').find((l) => l && !l.startsWith('#'));
          if (!first) return '';
          return (await fetch(new URL(first, master), { signal: AbortSignal.timeout(5000) })).text();
        },
        (body) => body.includes(liveHost),
        {
          timeoutMs: 90_000,
          intervalMs: 1000,
          what: `a segment of the live source (${liveHost}) in the channel's playlist`,
        },
      );
      notes.push(
        `LIVE on air ${((Date.now() - start) / 1000).toFixed(1)} s after its start (${media.split(liveHost).length - 1} live segments listed)`,
      );
    });
  } finally {
    await live.close();
    await new Promise((resolve) => feedServer.close(resolve));
  }
}
