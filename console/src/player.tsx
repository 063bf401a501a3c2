/**
 * The channel's player: hls.js on a muted video (the browser's own HLS where hls.js cannot run) with a
 * live control bar (no duration, no seek bar: a channel has no end), and its stats once a second, each
 * measured (player-stats.ts). The page says "starting" while the engine has not picked a new channel
 * up, and what it does about an error (player-session.ts). The PDT of the frame on screen is passed up
 * (`onScreenTime`) so the timeline's "now" is what the viewer sees, not the wall clock.
 */
import Hls from 'hls.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { LiveBar } from './live-bar';
import { type Phase, PlayerSession } from './player-session';
import { readStats, type Stats } from './player-stats';

interface View {
  stats: Stats;
  phase: Phase;
  errors: PlayerSession['errors'];
  stalls: number;
}

const fmt = (v: number | undefined, unit: string, digits = 1) =>
  v === undefined ? '–' : `${v.toFixed(digits)} ${unit}`;

const seconds = (at: number) => Math.max(0, Math.ceil((at - Date.now()) / 1000));

function phaseText(phase: Phase): string {
  switch (phase.kind) {
    case 'loading':
      return 'Loading the channel…';
    case 'starting':
      return `Starting: the engine has not picked this channel up yet (it answered ${phase.status}); asking again ${phase.retryAt === undefined ? 'shortly' : `in ${seconds(phase.retryAt)} s`}.`;
    case 'recovering':
      return `Recovering from ${phase.what} (attempt ${phase.attempt}, in ${seconds(phase.retryAt)} s).`;
    case 'failed':
      return `Playback failed: ${phase.what}.`;
    default:
      return 'Playing.';
  }
}

export function Player({ src, onScreenTime }: { src: string; onScreenTime?: (ms?: number) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [session, setSession] = useState<PlayerSession | undefined>();
  const [view, setView] = useState<View>({ stats: {}, phase: { kind: 'loading' }, errors: [], stalls: 0 });
  const [, setTick] = useState(0);
  // "Try again" after a failure starts a new hls.js from scratch.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const el = video.current!;
    if (!Hls.isSupported()) {
      el.src = src;
      void el.play().catch(() => undefined);
      return;
    }
    const s = new PlayerSession(src, el, () => setTick((n) => n + 1));
    // For a test or a curious operator: document.querySelector('video').hls is the hls.js instance.
    Object.assign(el, { hls: s.hls });
    setSession(s);
    const sample = () => {
      const stats = readStats(s.hls, el, s.frags, Date.now());
      setView({ stats, phase: s.phase, errors: [...s.errors], stalls: s.stalls });
      onScreenTime?.(stats.playingDateMs);
    };
    const timer = setInterval(sample, 1000);
    return () => {
      clearInterval(timer);
      s.destroy();
      setSession(undefined);
    };
  }, [src, generation]);
  const { stats, errors } = view;
  // The phase as it is now (a change re-renders at once), not as of the last stats sample.
  const phase = session?.phase ?? view.phase;
  return (
    <>
      <div class="player">
        <video ref={video} muted playsInline aria-label="Channel playback" />
        {session && <LiveBar session={session} video={video.current!} latency={stats.latency} />}
      </div>
      <p class={phase.kind === 'failed' ? 'error' : 'hint'} role="status" data-phase={phase.kind}>
        {phaseText(phase)}{' '}
        {phase.kind === 'failed' && session && (
          <button type="button" class="secondary" onClick={() => setGeneration((g) => g + 1)}>
            Try again
          </button>
        )}
      </p>
      <dl
        class="stats"
        aria-label="Playback statistics"
        aria-live="off"
        data-position={stats.position}
        data-read-at={stats.readAtMs}
      >
        <Stat name="latency" label="Latency (to live edge)" value={fmt(stats.latency, 's')} />
        <Stat name="delay" label="Delay (wall clock − PDT)" value={fmt(stats.delay, 's')} />
        <Stat name="buffer" label="Buffer ahead" value={fmt(stats.buffer, 's')} />
        <Stat name="measured-bitrate" label="Bitrate measured" value={fmt(stats.measuredKbps, 'kbit/s', 0)} />
        <Stat name="bitrate" label="Bitrate declared" value={fmt(stats.declaredKbps, 'kbit/s', 0)} />
        <Stat name="download" label="Download (estimate)" value={fmt(stats.downloadKbps, 'kbit/s', 0)} />
        <Stat name="errors" label="Errors" value={String(errors.length)} />
        <Stat name="stalls" label="Stalls" value={String(view.stalls)} />
      </dl>
      {errors.length > 0 && (
        <details class="hint">
          <summary>Errors, each once</summary>
          <ol data-errors>
            {errors.map((e) => (
              <li key={e.key} data-key={e.key}>
                {(e.atMs / 1000).toFixed(1)} s: {e.text}
              </li>
            ))}
          </ol>
        </details>
      )}
    </>
  );
}

function Stat({ name, label, value }: { name: string; label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-stat={name}>{value}</dd>
    </div>
  );
}
