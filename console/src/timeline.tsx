/**
 * What is on now and next. A schedule channel's programmes come from its EPG (epg.json, the next
 * hours); a channel-service channel has no schedule, so its timeline is what the engine reports it
 * played and appended (the public event stream, /eventstream/<name>), from the moment the page opened.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';

export interface Programme {
  title: string;
  start: number;
  stop: number;
  type: string;
}

const HOURS_AHEAD = 6;
const time = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Schedule channel: the EPG from an hour ago to HOURS_AHEAD from now, refreshed every 30 s. */
export function useEpg(id: string): { programmes: Programme[]; error: string } {
  const [state, setState] = useState({ programmes: [] as Programme[], error: '' });
  useEffect(() => {
    const load = async () => {
      const now = Date.now();
      const q = new URLSearchParams({
        start: new Date(now - 3_600_000).toISOString(),
        end: new Date(now + HOURS_AHEAD * 3_600_000).toISOString(),
      });
      try {
        const epg = await call<{
          programmes: { title: string; start: string; stop: string; type: string }[];
        }>(cfg().scheduleApi, `/channels/${encodeURIComponent(id)}/epg.json?${q}`);
        const programmes = epg.programmes.map((p) => ({
          ...p,
          start: Date.parse(p.start),
          stop: Date.parse(p.stop),
        }));
        setState({ programmes, error: '' });
      } catch (err) {
        setState((s) => ({ ...s, error: message(err) }));
      }
    };
    void load();
    const timer = setInterval(load, 30_000);
    return () => clearInterval(timer);
  }, [id]);
  return state;
}

/**
 * Channel-service channel: its guide from the playout log first (the last hour and the item appended
 * next: GET /channel/{id}/epg.json), then items live as the engine starts and appends them.
 */
export function usePlayout(
  channelId: string,
  eventStreamUrl: string,
): { programmes: Programme[]; error: string } {
  const [programmes, setProgrammes] = useState<Programme[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    call<{ programmes: { title: string; start: string; stop: string; type: string }[] }>(
      cfg().channelApi,
      `/channel/${encodeURIComponent(channelId)}/epg.json`,
    ).then(
      (epg) => {
        const logged = epg.programmes.map((p) => ({
          ...p,
          start: Date.parse(p.start),
          stop: Date.parse(p.stop),
        }));
        setProgrammes((live) => merge(logged, live));
      },
      () => undefined, // the live events still fill the timeline
    );
    const source = new EventSource(eventStreamUrl);
    const onItem = (e: MessageEvent) => {
      const { data } = JSON.parse(e.data) as {
        data: { title?: string; uri?: string; startMs?: number; durationMs?: number; kind?: string };
      };
      if (data.startMs === undefined || data.durationMs === undefined) return;
      const p: Programme = {
        title: data.title ?? data.uri?.split('/').slice(-2, -1)[0] ?? 'item',
        start: data.startMs,
        stop: data.startMs + data.durationMs,
        type: data.kind ?? 'VOD',
      };
      setProgrammes((list) => merge(list, [p]));
    };
    source.addEventListener('item_started', onItem);
    source.addEventListener('item_appended', onItem);
    source.onerror = () => setError('the engine event stream is not reachable; retrying');
    source.onopen = () => setError('');
    return () => source.close();
  }, [channelId, eventStreamUrl]);
  return { programmes, error };
}

/** One programme per start time (the later report wins), in start order, the newest 20. */
const merge = (a: Programme[], b: Programme[]): Programme[] => {
  const byStart = new Map<number, Programme>();
  for (const p of [...a, ...b]) byStart.set(p.start, p);
  return [...byStart.values()].sort((x, y) => x.start - y.start).slice(-20);
};

export function Timeline({ programmes, empty }: { programmes: Programme[]; empty: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const upcoming = programmes.filter((p) => p.stop > now);
  const current = upcoming.find((p) => p.start <= now);
  const next = upcoming.find((p) => p.start > now);
  if (upcoming.length === 0) return <p>{empty}</p>;
  return (
    <ol class="timeline" aria-label="Timeline">
      {upcoming.slice(0, 12).map((p) => {
        const role = p === current ? 'now' : p === next ? 'next' : '';
        return (
          <li key={`${p.start}-${p.title}`} class={role} data-role={role || undefined}>
            <time dateTime={new Date(p.start).toISOString()}>{time(p.start)}</time>
            <span>
              {role && <strong>{role === 'now' ? 'Now: ' : 'Next: '}</strong>}
              {p.title}{' '}
              {p.type.toUpperCase() === 'LIVE' ? (
                <span class="badge live">LIVE</span>
              ) : (
                p.type.toUpperCase() !== 'VOD' && <span class="badge">{p.type}</span>
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
