/** The few S3 operations AutoABR needs, each bounded in size (we read what users point us at). */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { S3Location } from '../domain/s3-url';

export class ObjectTooLargeError extends Error {
  override name = 'ObjectTooLargeError';
}

/** S3's "no such object/bucket" in any of the shapes SDK errors take. */
export function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchBucket' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

export function isAccessDenied(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'AccessDenied' || e?.$metadata?.httpStatusCode === 403;
}

async function readBounded(body: Readable, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new ObjectTooLargeError(`${what} exceeds ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function getText(s3: S3Client, loc: S3Location, maxBytes: number): Promise<string> {
  const res = await s3.send(new GetObjectCommand({ Bucket: loc.bucket, Key: loc.key }));
  const what = `s3://${loc.bucket}/${loc.key}`;
  if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
    (res.Body as Readable | undefined)?.destroy();
    throw new ObjectTooLargeError(`${what} is ${res.ContentLength} bytes, over the ${maxBytes}-byte limit`);
  }
  return (await readBounded(res.Body as Readable, maxBytes, what)).toString('utf8');
}

/** Streams an object to a file; refuses objects over `maxBytes` before and while downloading. */
export async function downloadToFile(
  s3: S3Client,
  loc: S3Location,
  path: string,
  maxBytes: number,
): Promise<number> {
  const res = await s3.send(new GetObjectCommand({ Bucket: loc.bucket, Key: loc.key }));
  const what = `s3://${loc.bucket}/${loc.key}`;
  const body = res.Body as Readable;
  if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
    body.destroy();
    throw new ObjectTooLargeError(`${what} is ${res.ContentLength} bytes, over the ${maxBytes}-byte limit`);
  }
  let size = 0;
  body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) body.destroy(new ObjectTooLargeError(`${what} exceeds ${maxBytes} bytes`));
  });
  await pipeline(body, createWriteStream(path));
  return size;
}

/** Writes an object; returns its ETag (the same value a later listing shows). */
export async function putText(
  s3: S3Client,
  loc: S3Location,
  text: string,
  contentType: string,
): Promise<string> {
  const res = await s3.send(
    new PutObjectCommand({ Bucket: loc.bucket, Key: loc.key, Body: text, ContentType: contentType }),
  );
  return res.ETag ?? '';
}

export interface ListedObject {
  key: string;
  /** Changes whenever the object's content does. */
  etag: string;
}

/** Every object under a prefix, page by page (ListObjectsV2 returns at most 1,000 per call). */
export async function* listObjects(
  s3: S3Client,
  bucket: string,
  prefix: string,
): AsyncGenerator<ListedObject> {
  let token: string | undefined;
  do {
    const res = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const obj of res.Contents ?? []) if (obj.Key) yield { key: obj.Key, etag: obj.ETag ?? '' };
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
}
