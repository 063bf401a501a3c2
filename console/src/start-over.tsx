/**
 * Start-over (docs/timeshift.md): the channel's own playlist URL with `?start=<ISO>` is an EVENT
 * playlist from that moment that grows with the live edge, each segment stamped with its original air
 * time. The page's player plays it instead of the live URL until "Back to live". The URL is asked once
 * before the player gets it, so a moment outside the retention shows the engine's reason, not a
 * player error.
 */
import { useState } from 'preact/hooks';

/** The playback URL time-shifted to start at `startMs`. */
export function timeShifted(playback: string, startMs: number): string {
  const url = new URL(playback);
  url.searchParams.set('start', new Date(startMs).toISOString());
  return url.toString();
}

/** Checks that the engine serves the moment; the reason it gives when not. */
export async function checkStartOver(url: string): Promise<string | undefined> {
  const res = await fetch(url);
  if (res.ok) return undefined;
  const text = await res.text();
  try {
    return (JSON.parse(text) as { message?: string }).message ?? `${res.status}`;
  } catch {
    return `${res.status} ${text.slice(0, 200)}`;
  }
}

/** `YYYY-MM-DDTHH:MM` of a local instant, as a datetime-local input takes it. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

export function StartOver({
  startedAt,
  error,
  onStart,
  onLive,
}: {
  /** The moment the player plays from, undefined when it plays live. */
  startedAt?: number;
  error?: string;
  onStart: (startMs: number) => void;
  onLive: () => void;
}) {
  const [minutes, setMinutes] = useState('5');
  const [at, setAt] = useState(() => localInput(Date.now() - 10 * 60_000));
  const [invalid, setInvalid] = useState('');
  const fromMinutes = (e: Event) => {
    e.preventDefault();
    const n = Number(minutes);
    if (!(n > 0)) return setInvalid('minutes');
    setInvalid('');
    onStart(Date.now() - n * 60_000);
  };
  const fromTime = (e: Event) => {
    e.preventDefault();
    const ms = new Date(at).getTime();
    if (Number.isNaN(ms)) return setInvalid('at');
    setInvalid('');
    onStart(ms);
  };
  return (
    <div
      class="start-over"
      data-start-over={startedAt === undefined ? 'live' : new Date(startedAt).toISOString()}
    >
      {startedAt !== undefined && (
        <p role="status">
          Start-over: playing from {new Date(startedAt).toLocaleString()}, catching up with the live edge.{' '}
          <button type="button" onClick={onLive}>
            Back to live
          </button>
        </p>
      )}
      {error && (
        <p role="alert" class="error" id="start-over-error">
          Start-over refused: {error}
        </p>
      )}
      <form onSubmit={fromMinutes} noValidate class="inline">
        <label for="start-minutes">Start over from</label>{' '}
        <input
          id="start-minutes"
          inputMode="numeric"
          size={4}
          value={minutes}
          onInput={(e) => setMinutes(e.currentTarget.value)}
          aria-invalid={invalid === 'minutes' || undefined}
        />{' '}
        minutes ago{' '}
        <button type="submit" class="secondary">
          Start over
        </button>
      </form>
      <form onSubmit={fromTime} noValidate class="inline">
        <label for="start-at">or at</label>{' '}
        <input
          id="start-at"
          type="datetime-local"
          step={1}
          value={at}
          onInput={(e) => setAt(e.currentTarget.value)}
          aria-invalid={invalid === 'at' || undefined}
        />{' '}
        <button type="submit" class="secondary">
          Play from then
        </button>
      </form>
    </div>
  );
}
