/**
 * One channel: its health, the player with its live stats (or start-over from a past moment), the
 * timeline of what is on now and next (aligned to the frame on screen), what the engine reported about
 * it (slates, errors), its as-run log, and for a channel-service channel its source and preroll to
 * change. The channel is read again every 15 s so its status stays current.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';
import { AsRunLog } from './asrun';
import type { AsRunSource } from './asrun-log';
import { type ChannelDetail, ChannelEdit } from './channel-edit';
import type { StreamState } from './event-stream';
import { Player } from './player';
import { type EngineNotice, usePlayout } from './playout';
import { ScheduleEditor } from './schedule-editor';
import { checkStartOver, StartOver, timeShifted } from './start-over';
import { type Health, StatusBadge } from './status';
import { Timeline, useEpg } from './timeline';

interface Found extends Health {
  title: string;
  playback: string;
  /** A channel-service channel as `GET /channel/{id}` answers it. */
  detail?: ChannelDetail;
}

const REFRESH_MS = 15_000;

async function findChannel(kind: string, id: string): Promise<Found> {
  if (kind === 's') {
    const c = await call<{ title: string; playback: string } & Health>(
      cfg().scheduleApi,
      `/channels/${encodeURIComponent(id)}`,
    );
    return { title: c.title, playback: c.playback, status: c.status, statusReason: c.statusReason };
  }
  const c = await call<ChannelDetail>(cfg().channelApi, `/channel/${encodeURIComponent(id)}`);
  return { title: c.name, playback: c.playback, status: c.status, statusReason: c.statusReason, detail: c };
}

const asRunSource = (kind: string, id: string): AsRunSource =>
  kind === 's'
    ? { base: cfg().scheduleApi, path: `/channels/${encodeURIComponent(id)}/asrun` }
    : { base: cfg().channelApi, path: `/channel/${encodeURIComponent(id)}/asrun` };

/** Start-over: the moment played from (undefined: live), and the engine's refusal of the last asked. */
function useStartOver(playback: string | undefined) {
  const [startedAt, setStartedAt] = useState<number | undefined>();
  const [error, setError] = useState('');
  const start = async (ms: number) => {
    if (!playback) return;
    setError('');
    try {
      const refused = await checkStartOver(timeShifted(playback, ms));
      if (refused) return setError(refused);
      setStartedAt(ms);
    } catch (err) {
      setError(message(err));
    }
  };
  const live = () => {
    setError('');
    setStartedAt(undefined);
  };
  const src = playback && (startedAt === undefined ? playback : timeShifted(playback, startedAt));
  return { startedAt, error, start, live, src };
}

export function ChannelPage({ kind, id }: { kind: string; id: string }) {
  const [found, setFound] = useState<Found | undefined>();
  const [error, setError] = useState('');
  const [screenTime, setScreenTime] = useState<number | undefined>();
  const startOver = useStartOver(found?.playback);
  useEffect(() => {
    const load = () =>
      findChannel(kind, id).then(
        (c) => {
          // The same playback URL keeps the same object: the player is not restarted by a refresh.
          setFound((old) => (old && old.playback === c.playback ? { ...c, playback: old.playback } : c));
          setError('');
        },
        (err) => setError(message(err)),
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [kind, id]);
  return (
    <>
      <section aria-labelledby="channel-title">
        <h2 id="channel-title" tabIndex={-1}>
          {found?.title ?? id}
        </h2>
        <p>
          <a href="#/">← All channels</a> {found && <StatusBadge {...found} />}
        </p>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {found && startOver.src && (
          <>
            <Player src={startOver.src} onScreenTime={setScreenTime} />
            <StartOver
              startedAt={startOver.startedAt}
              error={startOver.error}
              onStart={startOver.start}
              onLive={startOver.live}
            />
            <p class="hint">
              Playback URL: <code>{startOver.src}</code>
            </p>
          </>
        )}
      </section>
      {found && (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">On now and next</h2>
          {kind === 's' ? (
            <EpgTimeline id={id} screenTime={screenTime} />
          ) : (
            <PlayoutTimeline id={id} playback={found.playback} screenTime={screenTime} />
          )}
        </section>
      )}
      {found && (
        <section aria-labelledby="asrun-title">
          <h2 id="asrun-title">As-run log</h2>
          <AsRunLog
            source={asRunSource(kind, id)}
            name={found.detail?.name ?? id}
            onStartOver={(ms) => void startOver.start(ms)}
          />
        </section>
      )}
      {found?.detail && (
        <section aria-labelledby="edit-title">
          <ChannelEdit
            key={found.detail.id}
            channel={found.detail}
            onSaved={(c) =>
              setFound((old) => old && { ...old, detail: c, status: c.status, statusReason: c.statusReason })
            }
          />
        </section>
      )}
    </>
  );
}

/** A schedule channel's timeline, and its entries to add, move and delete (read again after each). */
function EpgTimeline({ id, screenTime }: { id: string; screenTime?: number }) {
  const [version, setVersion] = useState(0);
  const { programmes, error } = useEpg(id, version);
  return (
    <>
      {error && <p class="error">{error}</p>}
      <Timeline
        programmes={programmes}
        screenTime={screenTime}
        empty="Nothing scheduled in the next hours."
      />
      <ScheduleEditor channel={id} version={version} onChange={() => setVersion((v) => v + 1)} />
    </>
  );
}

const streamText = (s: StreamState): string =>
  s.kind === 'open'
    ? 'Connected to the engine: items appear as it starts and plans them.'
    : s.kind === 'connecting'
      ? "Connecting to the engine's event stream…"
      : `The engine's event stream is not reachable (attempt ${s.attempt}); trying again at ${new Date(s.retryAt).toLocaleTimeString()}.`;

/** The engine plays a channel-service channel under its name: /channels/<name>/master.m3u8. */
function PlayoutTimeline({
  id,
  playback,
  screenTime,
}: {
  id: string;
  playback: string;
  screenTime?: number;
}) {
  const url = new URL(playback);
  const name = url.pathname.split('/')[2] ?? '';
  const { programmes, stream, notices } = usePlayout(
    id,
    `${url.origin}/eventstream/${encodeURIComponent(name)}`,
  );
  return (
    <>
      <p class="hint" data-stream={stream.kind}>
        {streamText(stream)}
      </p>
      <Timeline
        programmes={programmes}
        screenTime={screenTime}
        empty="Waiting for the engine to plan the first item…"
      />
      {notices.length > 0 && <Notices notices={notices} />}
    </>
  );
}

function Notices({ notices }: { notices: EngineNotice[] }) {
  return (
    <div>
      <h3>The engine reported</h3>
      <ul data-notices>
        {notices.map((n) => (
          <li key={`${n.time}-${n.type}`} class={n.type === 'vod_error' ? 'error' : ''}>
            {new Date(n.time).toLocaleTimeString()}: {n.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
