/** `s3://bucket/key` URLs: the one form the API accepts for documents and references. */
export interface S3Location {
  bucket: string;
  key: string;
}

// S3 bucket naming rules (no dots-adjacent or IP checks: S3 itself refuses those names on creation).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The location of an `s3://bucket/key` URL, or undefined when the text is not one. */
export function parseS3Url(url: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (!match) return undefined;
  const [, bucket, key] = match;
  if (!bucket || !key || !BUCKET.test(bucket) || key.length > 1024) return undefined;
  return { bucket, key };
}

export const toS3Url = (loc: S3Location): string => `s3://${loc.bucket}/${loc.key}`;
