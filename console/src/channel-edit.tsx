/**
 * Changing a channel-service channel from its page (`PATCH /channel/{id}`): its source and its
 * preroll. Only what changed is sent; `opts` replaces the channel's whole opts, so the other settings
 * it holds (tracks, profile, slate) are sent back as they were. A refusal shows the API's message and
 * marks the field it names; an accepted change with `warnings` says so and marks those fields.
 */
import { useState } from 'preact/hooks';
import { call, cfg } from './api';
import { type FormError, formError, invalidProps, type SourceWarning, warnedProps } from './form-errors';
import { type Preroll, PrerollFields, prerollForm, prerollOpt } from './preroll-fields';
import type { Health } from './status';
import { Warnings } from './warnings';

export interface ChannelDetail extends Health {
  id: string;
  name: string;
  type: string;
  /** The source: the Loop VOD or the webhook. */
  url: string;
  opts?: { preroll?: Preroll } & Record<string, unknown>;
  playback: string;
}

/** The PATCH body for what the form changed, undefined when nothing did. */
export function changes(c: ChannelDetail, url: string, preroll: Preroll | undefined) {
  const { preroll: was, ...others } = c.opts ?? {};
  const body: { url?: string; opts?: Record<string, unknown> } = {};
  if (url !== c.url) body.url = url;
  if (JSON.stringify(preroll) !== JSON.stringify(was && prerollOpt(prerollForm(was))))
    body.opts = { ...others, ...(preroll ? { preroll } : {}) };
  return Object.keys(body).length ? body : undefined;
}

export function ChannelEdit({
  channel,
  onSaved,
}: {
  channel: ChannelDetail;
  onSaved: (c: ChannelDetail) => void;
}) {
  const [url, setUrl] = useState(channel.url);
  const [preroll, setPreroll] = useState(prerollForm(channel.opts?.preroll));
  const [error, setError] = useState<FormError | undefined>();
  const [saved, setSaved] = useState<{ warnings: SourceWarning[]; text: string } | undefined>();
  const warnings = saved?.warnings ?? [];
  const loop = channel.type === 'Loop';
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setSaved(undefined);
    const body = changes(channel, url, loop ? prerollOpt(preroll) : channel.opts?.preroll);
    if (!body) return setSaved({ warnings: [], text: 'Nothing changed.' });
    try {
      const c = await call<ChannelDetail & { warnings?: SourceWarning[] }>(
        cfg().channelApi,
        `/channel/${encodeURIComponent(channel.id)}`,
        { method: 'PATCH', body },
      );
      const { warnings: w = [], ...changed } = c;
      setSaved({ warnings: w, text: 'Saved: the channel plays it from its next item.' });
      onSaved(changed);
    } catch (err) {
      setError(formError(err));
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="edit-title">
      <h3 id="edit-title">Change the source{loop ? ' or the preroll' : ''}</h3>
      <label for="edit-url">{loop ? 'VOD URL (HLS)' : 'WebHook URL'}</label>
      <input
        id="edit-url"
        type="url"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        {...warnedProps(warnings, 'url', 'edit-warnings')}
        {...invalidProps(error, 'url', 'edit-error')}
      />
      {loop && (
        <PrerollFields
          prefix="edit"
          value={preroll}
          onChange={setPreroll}
          error={error}
          errorId="edit-error"
          warnings={warnings}
          warningsId="edit-warnings"
        />
      )}
      <button type="submit">Save changes</button>
      {error && (
        <p id="edit-error" role="alert" class="error">
          {error.text}
        </p>
      )}
      {saved && warnings.length === 0 && (
        <p role="status" class="hint" data-saved>
          {saved.text}
        </p>
      )}
      <Warnings id="edit-warnings" saved="Saved" warnings={warnings} />
    </form>
  );
}
