/**
 * Channels: the token's channel-service channels (create with the API's own validation messages,
 * delete) and the tenant's schedule channels; each links to its channel page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, cfg, message } from './api';
import { CreateChannel } from './create-channel';
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
