/**
 * A Loop channel's preroll as a form edits it: URL, duration (ms) and delivery, spliced into the
 * stream or an HLS interstitial the player fetches (docs/ad-insertion.md). No URL means no preroll.
 */
import { type FormError, invalidProps, type SourceWarning, warnedProps } from './form-errors';

export interface PrerollForm {
  url: string;
  duration: string;
  delivery: 'spliced' | 'interstitial';
}

export interface Preroll {
  url: string;
  duration: string;
  delivery?: 'spliced' | 'interstitial';
}

export const prerollForm = (p?: Preroll): PrerollForm => ({
  url: p?.url ?? '',
  duration: p?.duration ?? '',
  delivery: p?.delivery ?? 'spliced',
});

/** The API's `opts.preroll`, undefined for none. */
export const prerollOpt = (f: PrerollForm): Preroll | undefined =>
  f.url ? { url: f.url, duration: f.duration, delivery: f.delivery } : undefined;

export function PrerollFields({
  prefix,
  value,
  onChange,
  error,
  errorId,
  warnings = [],
  warningsId = '',
}: {
  prefix: string;
  value: PrerollForm;
  onChange: (v: PrerollForm) => void;
  error?: FormError;
  errorId: string;
  warnings?: SourceWarning[];
  warningsId?: string;
}) {
  const marks = (path: string) => ({
    ...warnedProps(warnings, path, warningsId),
    ...invalidProps(error, path, errorId),
  });
  return (
    <>
      <label for={`${prefix}-preroll`}>Preroll URL (optional, Loop only)</label>
      <input
        id={`${prefix}-preroll`}
        type="url"
        value={value.url}
        onInput={(e) => onChange({ ...value, url: e.currentTarget.value })}
        {...marks('opts.preroll.url')}
      />
      <label for={`${prefix}-duration`}>Preroll duration (ms)</label>
      <input
        id={`${prefix}-duration`}
        inputMode="numeric"
        value={value.duration}
        onInput={(e) => onChange({ ...value, duration: e.currentTarget.value })}
        {...marks('opts.preroll.duration')}
      />
      <label for={`${prefix}-delivery`}>Preroll delivery</label>
      <select
        id={`${prefix}-delivery`}
        value={value.delivery}
        onChange={(e) => onChange({ ...value, delivery: e.currentTarget.value as PrerollForm['delivery'] })}
        {...marks('opts.preroll.delivery')}
      >
        <option value="spliced">Spliced into the stream (ad markers)</option>
        <option value="interstitial">HLS interstitial (the player fetches it)</option>
      </select>
    </>
  );
}
