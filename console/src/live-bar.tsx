/**
 * A live control bar: play/pause, sound, how far behind live the picture is with a "Go live" jump to
 * hls.js's live sync position, the audio language and the subtitles, full screen. No duration and no
 * seek bar: a channel has no end, and a VOD-style bar over the sliding window would mislead.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PlayerSession } from './player-session';

/** Within this many seconds of hls.js's target latency the picture counts as live. */
const LIVE_SLACK_S = 3;

export function LiveBar({
  session,
  video,
  latency,
}: {
  session: PlayerSession;
  video: HTMLVideoElement;
  latency?: number;
}) {
  const [paused, setPaused] = useState(video.paused);
  const [muted, setMuted] = useState(video.muted);
  useEffect(() => {
    const update = () => {
      setPaused(video.paused);
      setMuted(video.muted);
    };
    for (const e of ['play', 'pause', 'volumechange']) video.addEventListener(e, update);
    return () => {
      for (const e of ['play', 'pause', 'volumechange']) video.removeEventListener(e, update);
    };
  }, [video]);
  const { hls } = session;
  const target = hls.targetLatency ?? 0;
  const live = latency !== undefined && latency <= target + LIVE_SLACK_S;
  const goLive = () => {
    const edge = hls.liveSyncPosition;
    if (edge !== null) video.currentTime = edge;
    void video.play().catch(() => undefined);
  };
  const audio = session.audioTracks;
  const subtitles = session.subtitleTracks;
  return (
    <fieldset class="livebar">
      <legend class="visually-hidden">Player controls</legend>
      <button
        type="button"
        onClick={() => (video.paused ? void video.play().catch(() => undefined) : video.pause())}
      >
        {paused ? 'Play' : 'Pause'}
      </button>
      <button type="button" class="secondary" onClick={() => (video.muted = !video.muted)}>
        {muted ? 'Unmute' : 'Mute'}
      </button>
      {live ? (
        <span class="badge live" data-live="true">
          LIVE
        </span>
      ) : (
        <button type="button" class="secondary" onClick={goLive} data-live="false">
          Go live{latency !== undefined ? ` (${latency.toFixed(0)} s behind)` : ''}
        </button>
      )}
      {audio.length > 0 && (
        <label>
          Audio{' '}
          <select
            value={String(session.audioTrack)}
            disabled={audio.length < 2}
            onChange={(e) => {
              session.audioTrack = Number(e.currentTarget.value);
            }}
          >
            {audio.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {subtitles.length > 0 && (
        <label>
          Subtitles{' '}
          <select
            value={String(session.subtitleTrack)}
            onChange={(e) => {
              session.subtitleTrack = Number(e.currentTarget.value);
            }}
          >
            <option value="-1">Off</option>
            {subtitles.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" class="secondary" onClick={() => void video.requestFullscreen?.()}>
        Full screen
      </button>
    </fieldset>
  );
}
