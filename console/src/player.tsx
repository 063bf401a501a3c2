/**
 * The channel's player: hls.js on a muted video (the browser's own HLS where hls.js cannot run), and
 * its live stats once a second: latency to the live edge, buffer ahead, the variant's bitrate, errors
 * and stalls.
 */
import Hls from 'hls.js';
import { useEffect, useRef, useState } from 'preact/hooks';

interface Stats {
  latency?: number;
  buffer?: number;
  bitrate?: number;
  errors: number;
  stalls: number;
  lastError?: string;
}

const fmt = (v: number | undefined, unit: string, digits = 1) =>
  v === undefined ? '–' : `${v.toFixed(digits)} ${unit}`;

export function Player({ src }: { src: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [stats, setStats] = useState<Stats>({ errors: 0, stalls: 0 });
  useEffect(() => {
    const el = video.current!;
    const counts = { errors: 0, stalls: 0, lastError: undefined as string | undefined };
    let hls: Hls | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    if (Hls.isSupported()) {
      hls = new Hls({ lowLatencyMode: false });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (data.details === Hls.ErrorDetails.BUFFER_STALLED_ERROR) counts.stalls++;
        else counts.errors++;
        counts.lastError = `${data.details}${data.fatal ? ' (fatal)' : ''}`;
        if (data.fatal && data.type === Hls.ErrorTypes.MEDIA_ERROR) hls?.recoverMediaError();
        // A channel just created is on air within seconds: a failed playlist load is retried, not final.
        if (data.fatal && data.type === Hls.ErrorTypes.NETWORK_ERROR)
          retry = setTimeout(() => {
            hls?.loadSource(src);
            hls?.startLoad();
          }, 2000);
      });
      hls.loadSource(src);
      hls.attachMedia(el);
    } else el.src = src;
    void el.play().catch(() => undefined);
    const timer = setInterval(() => {
      const ahead = el.buffered.length ? el.buffered.end(el.buffered.length - 1) - el.currentTime : undefined;
      const level = hls && hls.currentLevel >= 0 ? hls.levels[hls.currentLevel] : undefined;
      setStats({
        latency: hls?.latency || undefined,
        buffer: ahead,
        bitrate: level ? level.bitrate / 1000 : undefined,
        ...counts,
      });
    }, 1000);
    return () => {
      clearInterval(timer);
      clearTimeout(retry);
      hls?.destroy();
    };
  }, [src]);
  return (
    <>
      <video ref={video} muted controls playsInline aria-label="Channel playback" />
      <dl class="stats" aria-label="Playback statistics" aria-live="off">
        <div>
          <dt>Latency</dt>
          <dd data-stat="latency">{fmt(stats.latency, 's')}</dd>
        </div>
        <div>
          <dt>Buffer</dt>
          <dd data-stat="buffer">{fmt(stats.buffer, 's')}</dd>
        </div>
        <div>
          <dt>Bitrate</dt>
          <dd data-stat="bitrate">{fmt(stats.bitrate, 'kbit/s', 0)}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-stat="errors">{stats.errors}</dd>
        </div>
        <div>
          <dt>Stalls</dt>
          <dd data-stat="stalls">{stats.stalls}</dd>
        </div>
      </dl>
      {stats.lastError && <p class="hint">Last error: {stats.lastError}</p>}
    </>
  );
}
