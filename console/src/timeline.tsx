/**
 * What is on now and next. A schedule channel's programmes come from its EPG (epg.json, the next
 * hours); a channel-service channel's from its playout (playout.ts). "Now" is the time of the frame on
 * screen (its program date-time) when the player knows it: a viewer is some seconds behind the wall
 * clock, and the timeline says what they see, not what the engine is sending at this instant.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';
import { type Programme, parseProgrammes, type WireProgramme } from './programmes';

const HOURS_AHEAD = 6;
const time = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Schedule channel: the EPG from an hour ago to HOURS_AHEAD from now, refreshed every 30 s and
 * whenever `version` moves (the page changed the schedule).
 */
export function useEpg(id: string, version = 0): { programmes: Programme[]; error: string } {
  const [state, setState] = useState({ programmes: [] as Programme[], error: '' });
  useEffect(() => {
    const load = async () => {
      const now = Date.now();
      const q = new URLSearchParams({
        start: new Date(now - 3_600_000).toISOString(),
        end: new Date(now + HOURS_AHEAD * 3_600_000).toISOString(),
      });
      try {
        const epg = await call<{ programmes: WireProgramme[] }>(
          cfg().scheduleApi,
          `/channels/${encodeURIComponent(id)}/epg.json?${q}`,
        );
        setState({ programmes: parseProgrammes(epg.programmes), error: '' });
      } catch (err) {
        setState((s) => ({ ...s, error: message(err) }));
      }
    };
    void load();
    const timer = setInterval(load, 30_000);
    return () => clearInterval(timer);
  }, [id, version]);
  return state;
}

/** The wall clock, once a second. */
function useClock(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function Timeline({
  programmes,
  empty,
  screenTime,
}: {
  programmes: Programme[];
  empty: string;
  /** The PDT of the frame on screen (ms); the wall clock until the player knows it. */
  screenTime?: number;
}) {
  const wall = useClock();
  const now = screenTime ?? wall;
  const upcoming = programmes.filter((p) => p.stop > now);
  const current = upcoming.find((p) => p.start <= now);
  const next = upcoming.find((p) => p.start > now);
  if (upcoming.length === 0) return <p>{empty}</p>;
  return (
    <>
      <p class="hint" data-clock={screenTime === undefined ? 'wall' : 'screen'}>
        {screenTime === undefined
          ? `Now is the wall clock (${time(wall)}) until the player shows a frame.`
          : `Now is the frame on screen (${time(screenTime)}), ${Math.max(0, Math.round((wall - screenTime) / 1000))} s behind the wall clock.`}
      </p>
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
    </>
  );
}
