/**
 * The README's walk-through, through the rehearsed channel API: a trial token, a Loop channel with the
 * slate as preroll, (the engine plays it: see play-channel.ts), list, delete.
 */
import { call } from '../api-client';
import type { Steps } from '../steps';

export interface WalkThrough {
  token: string;
  channel: { id: string; name: string; playback: string };
}

export async function createTrialChannel(options: {
  steps: Steps;
  channelApi: string;
  engineUrl: string;
}): Promise<WalkThrough> {
  const { steps, channelApi, engineUrl } = options;
  const { token } = await steps.run('walk-through: POST /token (a trial token)', () =>
    call<{ token: string }>(`${channelApi}/token`, { body: { company: 'Acme', email: 'dev@acme.example' } }),
  );
  const channel = await steps.run(
    'walk-through: POST /channel (Loop, the demo VOD, the slate as preroll)',
    () =>
      call<WalkThrough['channel']>(`${channelApi}/channel`, {
        token,
        body: {
          name: 'news',
          type: 'Loop',
          url: `${engineUrl}/demo/master.m3u8`,
          opts: { preroll: { url: `${engineUrl}/slate/master.m3u8`, duration: '4000' } },
        },
      }),
  );
  return { token, channel };
}

export async function listAndDelete(options: {
  steps: Steps;
  channelApi: string;
  walk: WalkThrough;
}): Promise<void> {
  const { steps, channelApi, walk } = options;
  await steps.run('walk-through: GET /channel lists it', async () => {
    const list = await call<{ id: string }[]>(`${channelApi}/channel`, { token: walk.token });
    if (!list.some((c) => c.id === walk.channel.id))
      throw new Error(`channel ${walk.channel.id} not listed: ${JSON.stringify(list)}`);
  });
  await steps.run('walk-through: DELETE /channel/{id}', () =>
    call(`${channelApi}/channel/${walk.channel.id}`, { method: 'DELETE', token: walk.token }),
  );
}

export async function walkThrough(options: {
  steps: Steps;
  channelApi: string;
  engineUrl: string;
}): Promise<void> {
  const walk = await createTrialChannel(options);
  await listAndDelete({ ...options, walk });
}
