/**
 * What the public event stream (/eventstream/<id>) shows of an engine event. In-process subscribers
 * get the full event; the stream gets an allow list of fields per type, error messages replaced by a
 * fixed text per code, and URLs without credentials. An error message carries what a fetch met
 * (addresses, ports, statuses, a webhook's answer): shown to anyone, it would make the engine a probe
 * of the network it runs in (docs/security.md). The full detail is in the engine's log.
 */
import type { EngineEvent } from '../events';

/** Fixed public texts, by the code an error carries (VodLoadError, WebhookError). */
const ERROR_TEXTS: Record<string, string> = {
  vod_not_found: 'the VOD could not be loaded',
  vod_timeout: 'the VOD could not be loaded',
  vod_malformed: 'the VOD could not be loaded',
  vod_unavailable: 'the VOD could not be loaded',
  webhook_unavailable: 'the webhook could not be called',
  webhook_invalid: 'the webhook answer could not be used',
  live_not_found: 'the live source could not be played',
  live_timeout: 'the live source could not be played',
  live_unavailable: 'the live source could not be played',
  live_malformed: 'the live source could not be played',
  live_stalled: 'the live source stopped sending segments',
  live_segments_too_long: 'the live source could not be played',
};
const OTHER_ERROR = 'next_item_unavailable';
const OTHER_TEXT = "the channel's next item could not be planned";

/** The public code of an error code: known ones as they are, anything else one catch-all. */
export const publicErrorCode = (code: unknown): string =>
  typeof code === 'string' && Object.hasOwn(ERROR_TEXTS, code) ? code : OTHER_ERROR;

/** "the VOD could not be loaded (vod_unavailable)" */
export function publicErrorMessage(code: unknown): string {
  const known = publicErrorCode(code);
  return `${ERROR_TEXTS[known] ?? OTHER_TEXT} (${known})`;
}

/** A slate's or an item's reason: 'gap' when the asset manager asked for one, else 'vod_error'. */
const publicReason = (reason: unknown): string | undefined =>
  reason === undefined ? undefined : reason === 'gap' ? 'gap' : 'vod_error';

/** The URL without user name or password; anything that is not a URL string is left out. */
export function withoutCredentials(uri: unknown): string | null | undefined {
  if (uri === null) return null;
  if (typeof uri !== 'string') return undefined;
  try {
    const url = new URL(uri);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return undefined;
  }
}

function item(d: Record<string, unknown>): Record<string, unknown> {
  const { seq, kind, id, title, startMs, durationMs, eventId } = d;
  return {
    seq,
    kind,
    id,
    title,
    uri: withoutCredentials(d.uri),
    startMs,
    durationMs,
    eventId,
    reason: publicReason(d.reason),
  };
}

function publicData(event: EngineEvent): Record<string, unknown> {
  const d = event.data;
  switch (event.type) {
    case 'item_started':
    case 'item_appended':
      return item(d);
    case 'slate_inserted':
      return { reason: publicReason(d.reason), uri: withoutCredentials(d.uri), durationMs: d.durationMs };
    case 'vod_error':
      return { code: publicErrorCode(d.code), message: publicErrorMessage(d.code) };
    case 'channel_reset':
      return { startMs: d.startMs, seq: d.seq };
    case 'channel_added':
      return { name: d.name, origin: d.origin };
    default:
      return {};
  }
}

export function publicEvent(event: EngineEvent): EngineEvent {
  return { type: event.type, channelId: event.channelId, time: event.time, data: publicData(event) };
}
