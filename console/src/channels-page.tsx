/**
 * Channels: the token's channel-service channels (create with the API's own validation messages,
 * delete) and the tenant's schedule channels; each links to its channel page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, cfg, message } from './api';
import { type FormError, formError, invalidProps } from './form-errors';
import { type Health, StatusBadge } from './status';

interface Channel extends Health {
  id: string;
  name: string;
  type: string;
  url: string;
}
interface ScheduleChannel extends Health {
  id: string;
  title: string;
  playback: string;
}

/** The list as last read: not yet, refused (the token, usually), or the channels. */
type Listed =
  | { kind: 'loading' }
  | { kind: 'refused'; status: number; text: string }
  | { kind: 'ok'; channels: Channel[] };

export function ChannelsPage() {
  const [listed, setListed] = useState<Listed>({ kind: 'loading' });
  const [scheduled, setScheduled] = useState<ScheduleChannel[]>([]);
  const [error, setError] = useState('');
  const load = async () => {
    try {
      setListed({ kind: 'ok', channels: await call<Channel[]>(cfg().channelApi, '/channel') });
      setError('');
    } catch (err) {
      // Any failure ends "Loading…": a refused token says so and where to paste another.
      setListed({ kind: 'refused', status: err instanceof ApiError ? err.status : 0, text: message(err) });
    }
    // The schedule service may refuse a token it does not know (another deployment): not an error here.
    call<ScheduleChannel[]>(cfg().scheduleApi, '/channels').then(setScheduled, () => setScheduled([]));
  };
  useEffect(() => {
    void load();
  }, []);
  const remove = async (c: Channel) => {
    if (!confirm(`Delete channel ${c.name}?`)) return;
    try {
      await call(cfg().channelApi, `/channel/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
      await load();
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <>
      <section aria-labelledby="channels-title">
        <h2 id="channels-title" tabIndex={-1}>
          Channels
        </h2>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {listed.kind === 'loading' ? (
          <p>Loading…</p>
        ) : listed.kind === 'refused' ? (
          <p role="alert" class="error" data-refused={listed.status}>
            {listed.status === 401 || listed.status === 403
              ? `Your token was refused (${listed.status}: ${listed.text}). `
              : `The channel list could not be read: ${listed.text}. `}
            <a href="#/token">Paste another token</a>
          </p>
        ) : listed.channels.length === 0 ? (
          <p>No channels yet: create one below.</p>
        ) : (
          <table>
            <caption class="hint">Your channels (channel service)</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col" class="optional">
                  Playback
                </th>
                <th scope="col">
                  <span class="hint">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {listed.channels.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={`#/channel/c/${encodeURIComponent(c.id)}`}>{c.name}</a>
                  </td>
                  <td>{c.type}</td>
                  <td>{c.status ? <StatusBadge {...c} /> : <span class="hint">not reported</span>}</td>
                  <td class="optional">{c.url}</td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => remove(c)}
                      aria-label={`Delete ${c.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {listed.kind !== 'refused' && <CreateChannel onCreated={load} />}
      {scheduled.length > 0 && (
        <section aria-labelledby="scheduled-title">
          <h2 id="scheduled-title">Scheduled channels</h2>
          <ul>
            {scheduled.map((c) => (
              <li key={c.id}>
                <a href={`#/channel/s/${encodeURIComponent(c.id)}`}>{c.title}</a>{' '}
                <span class="hint">({c.id})</span> <StatusBadge {...c} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function CreateChannel({ onCreated }: { onCreated: () => void }) {
  const demo = `${cfg().playback}/demo/master.m3u8`;
  const [form, setForm] = useState({ name: '', type: 'Loop', url: demo, preroll: '', duration: '' });
  const [error, setError] = useState<FormError | undefined>();
  const set = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const invalid = (field: string) => invalidProps(error, field, 'create-error');
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const body = {
      name: form.name,
      type: form.type,
      url: form.url,
      ...(form.preroll ? { opts: { preroll: { url: form.preroll, duration: form.duration } } } : {}),
    };
    try {
      await call(cfg().channelApi, '/channel', { method: 'POST', body });
      setForm({ ...form, name: '' });
      onCreated();
    } catch (err) {
      setError(formError(err));
    }
  };
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Create a channel</h2>
      <form onSubmit={submit} noValidate>
        <label for="name">Name</label>
        <input id="name" value={form.name} onInput={set('name')} autoComplete="off" {...invalid('name')} />
        <p class="hint">Lowercase letters, digits and hyphens: it is part of the playback URL.</p>
        <label for="type">Type</label>
        <select id="type" value={form.type} onChange={set('type')} {...invalid('type')}>
          <option>Loop</option>
          <option>WebHook</option>
        </select>
        <label for="url">{form.type === 'Loop' ? 'VOD URL (HLS)' : 'WebHook URL'}</label>
        <input id="url" type="url" value={form.url} onInput={set('url')} {...invalid('url')} />
        <label for="preroll">Preroll URL (optional, Loop only)</label>
        <input
          id="preroll"
          type="url"
          value={form.preroll}
          onInput={set('preroll')}
          {...invalid('opts.preroll.url')}
        />
        <label for="duration">Preroll duration (ms)</label>
        <input
          id="duration"
          inputMode="numeric"
          value={form.duration}
          onInput={set('duration')}
          {...invalid('opts.preroll.duration')}
        />
        <button type="submit">Create channel</button>
        {error && (
          <p id="create-error" role="alert" class="error">
            {error.text}
          </p>
        )}
      </form>
    </section>
  );
}
