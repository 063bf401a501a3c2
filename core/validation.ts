/** zod is the one validation library; this turns its first issue into a 400 that names the field. */
import { z } from 'zod';
import { badRequest } from './errors';

export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const field = path ? `${path}.${issue.keys[0]}` : issue.keys[0]!;
    throw badRequest(`unknown field(s): ${issue.keys.join(', ')}`, field);
  }
  const field = path || what;
  const message =
    issue.code === 'invalid_type' && issue.received === 'undefined' ? 'is required' : issue.message;
  throw badRequest(`${field}: ${message}`, field);
}

const parsedUrl = (value: string): URL | undefined => {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
};

/**
 * An absolute http(s) URL of at most 2,048 characters, without credentials: every URL we fetch on a
 * user's behalf. Credentials in a URL would end up in logs and events (docs/security.md).
 */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    const u = parsedUrl(value);
    return u?.protocol === 'http:' || u?.protocol === 'https:';
  }, 'must be an absolute http or https URL')
  .refine((value) => {
    const u = parsedUrl(value);
    return !u || (u.username === '' && u.password === '');
  }, 'must not contain a user name or password');

/** C0 control characters and DEL: never part of an id, a name or a title (NUL, newlines, escapes). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Bidirectional embedding, override and isolate controls: they reorder how text around them is shown
 * ("Trojan Source"), so a title could display as something else than it is. Right-to-left text itself
 * (Arabic, Hebrew) needs none of them.
 */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Text a person types (a title, a company): trimmed, 1..max characters, no control characters and no
 * bidirectional controls.
 */
export const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters')
    .refine((value) => !BIDI_CONTROLS.test(value), 'must not contain bidirectional control characters');

/** An ISO 8601 instant with a date, a time and a zone (Z or ±hh:mm): no locale-dependent guesses. */
export const isoInstant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i,
    'must be an ISO 8601 instant with a zone, such as 2024-05-01T12:00:00Z',
  )
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real instant');
