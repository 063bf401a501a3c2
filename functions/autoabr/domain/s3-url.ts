/**
 * `s3://bucket/key` URLs: the one form the API accepts for documents and references. A key is sent to
 * S3 as given, and the worker names a local file after it (referenceFileName), so a key that is
 * harmless to S3 may still be harmful to whatever reads it later (a mirroring tool, a shell, a log
 * viewer): keys with control or bidirectional characters, backslashes or `.`/`..`/empty segments
 * (also percent-encoded, `..%2F`) are refused. docs/autoabr-api.md "The job request" states the rule.
 */
export interface S3Location {
  bucket: string;
  key: string;
}

// S3 bucket naming rules (no IP checks: S3 itself refuses those names on creation).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** S3's own limit on a key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024;

/**
 * C0 and C1 controls, DEL, and the bidirectional embedding/override/isolate controls and marks: never
 * part of a key anyone means to type ("Trojan Source" keys display as something else than they are).
 * The domain imports nothing but zod, so this is spelt out here rather than taken from core/validation.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSAFE_KEY_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\\]/;

function segmentProblem(key: string): string | undefined {
  if (UNSAFE_KEY_CHARACTERS.test(key))
    return 'key must not contain control, bidirectional-control or backslash characters';
  if (key.split('/').some((seg) => seg === '' || seg === '.' || seg === '..'))
    return 'key must not have empty, . or .. segments (no leading, trailing or double slash)';
  return undefined;
}

/** Why the key is refused, or undefined; checked as written and once percent-decoded. */
function keyProblem(key: string): string | undefined {
  if (new TextEncoder().encode(key).length > MAX_KEY_BYTES)
    return `key must be at most ${MAX_KEY_BYTES} bytes`;
  const problem = segmentProblem(key);
  if (problem) return problem;
  let decoded: string;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    return undefined; // a lone `%` is a character of the key, not an escape
  }
  const decodedProblem = decoded === key ? undefined : segmentProblem(decoded);
  return decodedProblem && `percent-decoded, ${decodedProblem}`;
}

/** Why `url` is not an acceptable `s3://bucket/key` URL, or undefined when it is one. */
export function s3UrlProblem(url: string): string | undefined {
  const match = /^s3:\/\/([^/]*)\/(.*)$/s.exec(url);
  if (!match) return 'must be an s3://bucket/key URL';
  const [, bucket = '', key = ''] = match;
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    return 'must be an s3://bucket/key URL with a valid S3 bucket name';
  if (key === '') return 'must be an s3://bucket/key URL (the key is missing)';
  return keyProblem(key);
}

/** The location of an `s3://bucket/key` URL, or undefined when the text is not an acceptable one. */
export function parseS3Url(url: string): S3Location | undefined {
  if (s3UrlProblem(url) !== undefined) return undefined;
  const slash = url.indexOf('/', 's3://'.length);
  return { bucket: url.slice('s3://'.length, slash), key: url.slice(slash + 1) };
}

export const toS3Url = (loc: S3Location): string => `s3://${loc.bucket}/${loc.key}`;
