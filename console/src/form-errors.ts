/**
 * A refused form: the API's message, and the field it names (`field` in a 400: "name", "url",
 * "opts.preroll.url", "job.resolutions.0.width"). An input is marked when the named field is it, inside
 * it (an item of a list input) or around it (the whole object the input is part of).
 */
import { ApiError, message } from './api';

export interface FormError {
  text: string;
  field?: string;
}

export const formError = (err: unknown): FormError => ({
  text: message(err),
  field: err instanceof ApiError ? err.field : undefined,
});

export const namesField = (named: string | undefined, path: string): boolean =>
  named !== undefined && (named === path || named.startsWith(`${path}.`) || path.startsWith(`${named}.`));

/** The attributes that mark an input the error names, tied to the error's text for screen readers. */
export const invalidProps = (error: FormError | undefined, path: string, errorId: string) =>
  namesField(error?.field, path) ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

/** A source the API accepted but could not read as HLS (`warnings` of POST and PATCH /channel). */
export interface SourceWarning {
  field: string;
  code: string;
  message: string;
}

/** The attributes that mark an input a warning names (not invalid: the API accepted it). */
export const warnedProps = (warnings: readonly SourceWarning[], path: string, noticeId: string) =>
  warnings.some((w) => namesField(w.field, path))
    ? { 'data-warned': true, 'aria-describedby': noticeId }
    : {};
