/**
 * The object storage AutoABR reads and writes (S3 in every deployment): settings documents, references,
 * result files and score indexes. Every read is bounded in size, because users point us at the objects.
 * Failures that callers act on have their own error classes, whatever the store's own errors look like.
 */
import type { S3Location } from '../domain/s3-url';

export interface ListedObject {
  key: string;
  /** Changes whenever the object's content does. */
  etag: string;
}

export interface ObjectStore {
  /** The object's text; ObjectTooLargeError past `maxBytes`. */
  getText(loc: S3Location, maxBytes: number): Promise<string>;
  /** Streams the object into a local file, refusing it past `maxBytes`; answers the bytes written. */
  downloadToFile(loc: S3Location, path: string, maxBytes: number): Promise<number>;
  /** Writes an object; answers its ETag (the value a later listing shows). */
  putText(loc: S3Location, text: string, contentType: string): Promise<string>;
  /** Every object under a prefix in key order, however many there are; only keys after `startAfter` when given. */
  list(bucket: string, prefix: string, startAfter?: string): AsyncIterable<ListedObject>;
}

/** No such object (or bucket). */
export class ObjectNotFoundError extends Error {
  override name = 'ObjectNotFoundError';
}

/** The store refused us the object. */
export class ObjectAccessDeniedError extends Error {
  override name = 'ObjectAccessDeniedError';
}

export class ObjectTooLargeError extends Error {
  override name = 'ObjectTooLargeError';
}
