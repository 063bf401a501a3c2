/**
 * The create form of the channels page: a Loop or WebHook channel, an optional preroll (spliced or
 * interstitial). A refusal shows the API's message and marks the field it names; a channel accepted
 * with `warnings` (a source that does not answer as HLS) says so and marks those fields.
 */
import { useState } from 'preact/hooks';
import { call, cfg } from './api';
import { type FormError, formError, invalidProps, type SourceWarning, warnedProps } from './form-errors';
import { PrerollFields, prerollForm, prerollOpt } from './preroll-fields';
import { Warnings } from './warnings';

export function CreateChannel({ onCreated }: { onCreated: () => void }) {
  const demo = `${cfg().playback}/demo/master.m3u8`;
  const [form, setForm] = useState({ name: '', type: 'Loop', url: demo });
  const [preroll, setPreroll] = useState(prerollForm());
  const [error, setError] = useState<FormError | undefined>();
  const [created, setCreated] = useState<{ name: string; warnings: SourceWarning[] } | undefined>();
  const set = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const warnings = created?.warnings ?? [];
  const marks = (field: string) => ({
    ...warnedProps(warnings, field, 'create-warnings'),
    ...invalidProps(error, field, 'create-error'),
  });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setCreated(undefined);
    const opt = prerollOpt(preroll);
    const body = {
      name: form.name,
      type: form.type,
      url: form.url,
      ...(opt ? { opts: { preroll: opt } } : {}),
    };
    try {
      const c = await call<{ name: string; warnings?: SourceWarning[] }>(cfg().channelApi, '/channel', {
        method: 'POST',
        body,
      });
      setCreated({ name: c.name, warnings: c.warnings ?? [] });
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
        <input id="name" value={form.name} onInput={set('name')} autoComplete="off" {...marks('name')} />
        <p class="hint">Lowercase letters, digits and hyphens: it is part of the playback URL.</p>
        <label for="type">Type</label>
        <select id="type" value={form.type} onChange={set('type')} {...marks('type')}>
          <option>Loop</option>
          <option>WebHook</option>
        </select>
        <label for="url">{form.type === 'Loop' ? 'VOD URL (HLS)' : 'WebHook URL'}</label>
        <input id="url" type="url" value={form.url} onInput={set('url')} {...marks('url')} />
        <PrerollFields
          prefix="create"
          value={preroll}
          onChange={setPreroll}
          error={error}
          errorId="create-error"
          warnings={warnings}
          warningsId="create-warnings"
        />
        <button type="submit">Create channel</button>
        {error && (
          <p id="create-error" role="alert" class="error">
            {error.text}
          </p>
        )}
        {created && <Warnings id="create-warnings" saved={`Created ${created.name}`} warnings={warnings} />}
      </form>
    </section>
  );
}
