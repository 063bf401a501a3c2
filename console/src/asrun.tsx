/**
 * A channel's as-run log on its page: what aired on a chosen day (the browser's day), with each
 * item's ad break and live switch in and out, read again every 15 s while the day is today; the day
 * as CSV (fetched with the token, then saved); and from each row, start-over from that programme.
 */
import { useEffect, useState } from 'preact/hooks';
import { message } from './api';
import { type AsRunEntry, type AsRunSource, asRunPath, localDay, readAsRun, readAsRunCsv } from './asrun-log';

const REFRESH_MS = 15_000;
/** A day of a 12 s loop is 7,200 entries: the table shows the latest, the CSV has them all. */
const MAX_ROWS = 500;

const time = (ms: number) => new Date(ms).toLocaleTimeString();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function AsRunLog({
  source,
  name,
  onStartOver,
}: {
  source: AsRunSource;
  /** The channel's name, for the file saved. */
  name: string;
  onStartOver: (startMs: number) => void;
}) {
  const [day, setDay] = useState(localDay(Date.now()));
  const [entries, setEntries] = useState<AsRunEntry[] | undefined>();
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    const load = () =>
      readAsRun(source, day).then(
        (e) => {
          if (!live) return;
          setEntries(e);
          setError('');
        },
        (err) => live && setError(message(err)),
      );
    void load();
    // Only today still grows.
    const timer = day === localDay(Date.now()) ? setInterval(load, REFRESH_MS) : undefined;
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [source.base, source.path, day, version]);
  const download = async (e: Event) => {
    e.preventDefault();
    try {
      saveFile(`asrun-${name}-${day}.csv`, await readAsRunCsv(source, day));
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <div class="asrun">
      <p class="toolbar">
        <label for="asrun-day">Day</label>{' '}
        <input
          id="asrun-day"
          type="date"
          value={day}
          max={localDay(Date.now())}
          onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)}
        />{' '}
        <button type="button" class="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>{' '}
        <a href={`${source.base}${asRunPath(source, day, 'csv')}`} onClick={download}>
          Download CSV
        </a>
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {entries === undefined ? (
        <p>Loading…</p>
      ) : entries.length === 0 ? (
        <p data-asrun-empty>Nothing aired that day yet: an item is listed once it has aired.</p>
      ) : (
        <AsRunTable entries={entries} onStartOver={onStartOver} />
      )}
    </div>
  );
}

function AsRunTable({
  entries,
  onStartOver,
}: {
  entries: AsRunEntry[];
  onStartOver: (startMs: number) => void;
}) {
  const shown = entries.slice(-MAX_ROWS);
  return (
    <table data-asrun>
      <caption class="hint">
        What aired, oldest first ({entries.length} {entries.length === 1 ? 'entry' : 'entries'}
        {shown.length < entries.length && `; the latest ${shown.length} shown, the CSV has them all`})
      </caption>
      <thead>
        <tr>
          <th scope="col">Start</th>
          <th scope="col">End</th>
          <th scope="col">Kind</th>
          <th scope="col">Title</th>
          <th scope="col">Ad break</th>
          <th scope="col">Live in / out</th>
          <th scope="col">
            <span class="hint">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((e) => (
          <tr key={`${e.startMs}-${e.id}`} data-start-ms={e.startMs} data-end-ms={e.endMs} data-id={e.id}>
            <td>
              <time dateTime={new Date(e.startMs).toISOString()}>{time(e.startMs)}</time>
            </td>
            <td>
              <time dateTime={new Date(e.endMs).toISOString()}>{time(e.endMs)}</time>
            </td>
            <td data-kind={e.kind}>
              {e.kind}
              {e.reason && <span class="hint"> ({e.reason})</span>}
            </td>
            <td>{e.title}</td>
            <td>
              {e.adBreak &&
                `${time(e.adBreak.cueOutMs)} → ${time(e.adBreak.cueInMs)} (${seconds(e.adBreak.durationMs)})`}
            </td>
            <td>
              {e.live &&
                `${time(e.live.inMs)} → ${time(e.live.outMs)}: ${e.live.outReason.replace('_', ' ')}`}
            </td>
            <td>
              <button
                type="button"
                class="secondary"
                onClick={() => onStartOver(e.startMs)}
                aria-label={`Start over at ${e.title}, ${time(e.startMs)}`}
              >
                Start over
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
