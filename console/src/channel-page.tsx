/** One channel: the player with its live stats, and the timeline of what is on now and next. */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';
import { Player } from './player';
import { Timeline, useEpg, usePlayout } from './timeline';

interface Found {
  title: string;
  playback: string;
}

export function ChannelPage({ kind, id }: { kind: string; id: string }) {
  const [found, setFound] = useState<Found | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    const find = async (): Promise<Found> => {
      if (kind === 's') {
        const c = await call<{ title: string; playback: string }>(
          cfg().scheduleApi,
          `/channels/${encodeURIComponent(id)}`,
        );
        return { title: c.title, playback: c.playback };
      }
      const list = await call<{ id: string; name: string; url: string }[]>(
        cfg().channelApi,
        '/channel?limit=1000',
      );
      const c = list.find((x) => x.id === id);
      if (!c) throw new Error(`no channel ${id}`);
      return { title: c.name, playback: c.url };
    };
    find().then(setFound, (err) => setError(message(err)));
  }, [kind, id]);
  return (
    <>
      <section aria-labelledby="channel-title">
        <h2 id="channel-title" tabIndex={-1}>
          {found?.title ?? id}
        </h2>
        <p>
          <a href="#/">← All channels</a>
        </p>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {found && (
          <>
            <Player src={found.playback} />
            <p class="hint">
              Playback URL: <code>{found.playback}</code>
            </p>
          </>
        )}
      </section>
      {found && (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">On now and next</h2>
          {kind === 's' ? <EpgTimeline id={id} /> : <PlayoutTimeline id={id} playback={found.playback} />}
        </section>
      )}
    </>
  );
}

function EpgTimeline({ id }: { id: string }) {
  const { programmes, error } = useEpg(id);
  return (
    <>
      {error && <p class="error">{error}</p>}
      <Timeline programmes={programmes} empty="Nothing scheduled in the next hours." />
    </>
  );
}

/** The engine plays a channel-service channel under its name: /channels/<name>/master.m3u8. */
function PlayoutTimeline({ id, playback }: { id: string; playback: string }) {
  const url = new URL(playback);
  const name = url.pathname.split('/')[2] ?? '';
  const { programmes, error } = usePlayout(id, `${url.origin}/eventstream/${encodeURIComponent(name)}`);
  return (
    <>
      <p class="hint">From the engine's playout: what it plays now and has planned next.</p>
      {error && <p class="hint">{error}</p>}
      <Timeline programmes={programmes} empty="Waiting for the engine to plan the next item…" />
    </>
  );
}
