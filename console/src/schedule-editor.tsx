/**
 * Editing a schedule channel from its page: the entries of the window the timeline shows, a form that
 * adds a LIVE or VOD entry, and per manual entry a move (to a new start, same length) and a delete.
 * A refusal shows the API's reason and marks the field it names (form-errors.ts); `onChange` tells the
 * page to read its timeline again.
 */
import { useEffect, useState } from 'preact/hooks';
import { message } from './api';
import { type FormError, formError, invalidProps } from './form-errors';
import {
  addEntry,
  deleteEntry,
  type Entry,
  fromLocalInput,
  isManual,
  listEntries,
  moveEntry,
  type NewEntry,
  toLocalInput,
} from './schedule-entries';

const clock = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function ScheduleEditor({
  channel,
  version,
  onChange,
}: {
  channel: string;
  version: number;
  onChange: () => void;
}) {
  const [entries, setEntries] = useState<Entry[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    const now = Date.now();
    listEntries(channel, now - 3_600_000, now + 6 * 3_600_000).then(
      (list) => {
        setEntries(list);
        setError('');
      },
      (err) => setError(message(err)),
    );
  }, [channel, version]);
  return (
    <>
      <AddEntryForm channel={channel} onAdded={onChange} />
      <h3>Entries</h3>
      {error && <p class="error">{error}</p>}
      <p class="hint">
        Moving adds the entry at its new time, then deletes the old one (two steps, not one): a refused time
        leaves it where it was. A move that overlaps the entry's own old time deletes it first and puts it
        back if the new time is refused. Entries the auto-scheduler made cannot be moved or deleted here.
      </p>
      {entries?.length === 0 && <p>No entries in the past hour or the next 6 hours.</p>}
      {entries && entries.length > 0 && (
        <table aria-label="Schedule entries">
          <thead>
            <tr>
              <th>Start</th>
              <th>Title</th>
              <th class="optional">Until</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <EntryRow key={e.id} channel={channel} entry={e} onChange={onChange} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function EntryRow({ channel, entry, onChange }: { channel: string; entry: Entry; onChange: () => void }) {
  const [to, setTo] = useState(toLocalInput(entry.start_time));
  const [error, setError] = useState<FormError | undefined>();
  const [busy, setBusy] = useState(false);
  const errorId = `entry-error-${entry.id}`;
  const run = async (op: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await op();
      onChange();
    } catch (err) {
      // The move has one time input: a refused start or end (an entry in the past) marks it.
      const refused = formError(err);
      setError(refused.field === 'end' ? { ...refused, field: 'start' } : refused);
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-entry={entry.id} data-title={entry.title}>
      <td>{clock(entry.start_time)}</td>
      <td>
        {entry.title} <span class={`badge ${entry.type === 'LIVE' ? 'live' : ''}`}>{entry.type}</span>
      </td>
      <td class="optional">{clock(entry.end_time)}</td>
      <td>
        {isManual(entry) ? (
          <>
            <label for={`move-${entry.id}`}>Move to</label>
            <input
              id={`move-${entry.id}`}
              type="datetime-local"
              step={1}
              value={to}
              onInput={(e) => setTo((e.target as HTMLInputElement).value)}
              {...invalidProps(error, 'start', errorId)}
            />
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => run(() => moveEntry(channel, entry, fromLocalInput(to)))}
            >
              Move
            </button>{' '}
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() => run(() => deleteEntry(channel, entry.id))}
            >
              Delete
            </button>
            {error && (
              <p id={errorId} role="alert" class="field-error">
                {error.text}
              </p>
            )}
          </>
        ) : (
          <span class="hint">auto-scheduled</span>
        )}
      </td>
    </tr>
  );
}

function AddEntryForm({ channel, onAdded }: { channel: string; onAdded: () => void }) {
  const [form, setForm] = useState({
    title: '',
    type: 'VOD' as NewEntry['type'],
    url: '',
    start: toLocalInput(Date.now() + 60_000),
    end: '',
  });
  const [error, setError] = useState<FormError | undefined>();
  const [busy, setBusy] = useState(false);
  const invalid = (field: string) => invalidProps(error, field, 'entry-error');
  const set = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await addEntry(channel, {
        title: form.title,
        type: form.type,
        url: form.url,
        start: new Date(fromLocalInput(form.start)).toISOString(),
        ...(form.end ? { end: new Date(fromLocalInput(form.end)).toISOString() } : {}),
      });
      onAdded();
    } catch (err) {
      setError(formError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-entry-title">
      <h3 id="add-entry-title">Add an entry</h3>
      <label for="entry-title">Title</label>
      <input id="entry-title" value={form.title} onInput={set('title')} {...invalid('title')} />
      <label for="entry-type">Type</label>
      <select id="entry-type" value={form.type} onChange={set('type')} {...invalid('type')}>
        <option value="VOD">VOD</option>
        <option value="LIVE">LIVE (a live HLS source)</option>
      </select>
      <label for="entry-url">URL (HLS)</label>
      <input id="entry-url" type="url" value={form.url} onInput={set('url')} {...invalid('url')} />
      <label for="entry-start">Start (your time zone)</label>
      <input
        id="entry-start"
        type="datetime-local"
        step={1}
        value={form.start}
        onInput={set('start')}
        {...invalid('start')}
      />
      <label for="entry-end">End (optional for a VOD: it lasts its duration)</label>
      <input
        id="entry-end"
        type="datetime-local"
        step={1}
        value={form.end}
        onInput={set('end')}
        {...invalid('end')}
      />
      <button type="submit" disabled={busy}>
        Add to the schedule
      </button>
      {error && (
        <p id="entry-error" role="alert" class="error">
          {error.text}
        </p>
      )}
    </form>
  );
}
