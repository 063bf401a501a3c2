/** Fetching a job's reference into the attempt's folder; a reference we cannot have fails the job for good. */
import { extname } from 'node:path';
import { PermanentJobError } from '../domain/attempt-policy';
import { parseS3Url } from '../domain/s3-url';
import {
  ObjectAccessDeniedError,
  ObjectNotFoundError,
  type ObjectStore,
  ObjectTooLargeError,
} from '../ports/object-store';

export async function downloadReference(
  objects: ObjectStore,
  url: string,
  path: string,
  maxBytes: number,
): Promise<void> {
  const loc = parseS3Url(url);
  if (!loc) throw new PermanentJobError(`reference ${url} is not an s3://bucket/key URL`);
  try {
    await objects.downloadToFile(loc, path, maxBytes);
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw new PermanentJobError(`reference ${url} not found`);
    if (err instanceof ObjectAccessDeniedError)
      throw new PermanentJobError(`reference ${url}: access denied`);
    if (err instanceof ObjectTooLargeError) throw new PermanentJobError(`reference ${err.message}`);
    throw err;
  }
}

/**
 * The reference's local file name, keeping its key's extension (some demuxers go by it) when that is
 * a plain one: the key is the user's text, and only letters and digits of it reach the file system.
 */
export function referenceFileName(url: string): string {
  const ext = extname(parseS3Url(url)?.key ?? '');
  return `reference${/^\.[A-Za-z0-9]{1,10}$/.test(ext) ? ext : '.mp4'}`;
}
