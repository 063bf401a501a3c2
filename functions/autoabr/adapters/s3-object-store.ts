/**
 * The object store on S3. SDK errors that callers act on (no such object, access denied) come out as the
 * port's error classes, with the SDK error as their cause.
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type S3Location, toS3Url } from '../domain/s3-url';
import {
  type ListedObject,
  ObjectAccessDeniedError,
  ObjectNotFoundError,
  type ObjectStore,
  ObjectTooLargeError,
} from '../ports/object-store';

/** S3's "no such object/bucket" in any of the shapes SDK errors take. */
function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchBucket' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

function isAccessDenied(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'AccessDenied' || e?.$metadata?.httpStatusCode === 403;
}

/** The port's error for an SDK error, or the SDK error itself when callers have nothing to decide. */
function storeError(err: unknown, loc: S3Location): unknown {
  const url = toS3Url(loc);
  if (isNotFound(err)) return new ObjectNotFoundError(`${url} not found`, { cause: err });
  if (isAccessDenied(err)) return new ObjectAccessDeniedError(`${url}: access denied`, { cause: err });
  return err;
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

export class S3ObjectStore implements ObjectStore {
  constructor(private readonly s3: S3Client) {}

  /** GETs an object, refusing it at once when its announced length is over `maxBytes`. */
  private async open(loc: S3Location, maxBytes: number): Promise<Readable> {
    let res: GetObjectCommandOutput;
    try {
      res = await this.s3.send(new GetObjectCommand({ Bucket: loc.bucket, Key: loc.key }));
    } catch (err) {
      throw storeError(err, loc);
    }
    const body = res.Body as Readable;
    if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
      body?.destroy();
      throw new ObjectTooLargeError(
        `${toS3Url(loc)} is ${res.ContentLength} bytes, over the ${maxBytes}-byte limit`,
      );
    }
    return body;
  }

  async getText(loc: S3Location, maxBytes: number): Promise<string> {
    const body = await this.open(loc, maxBytes);
    return (await readBounded(body, maxBytes, toS3Url(loc))).toString('utf8');
  }

  async downloadToFile(loc: S3Location, path: string, maxBytes: number): Promise<number> {
    const body = await this.open(loc, maxBytes);
    // The announced length can be missing: count while streaming too.
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        body.destroy(new ObjectTooLargeError(`${toS3Url(loc)} exceeds ${maxBytes} bytes`));
      }
    });
    await pipeline(body, createWriteStream(path));
    return size;
  }

  async putText(loc: S3Location, text: string, contentType: string): Promise<string> {
    try {
      const res = await this.s3.send(
        new PutObjectCommand({ Bucket: loc.bucket, Key: loc.key, Body: text, ContentType: contentType }),
      );
      return res.ETag ?? '';
    } catch (err) {
      throw storeError(err, loc);
    }
  }

  /** Page by page: ListObjectsV2 returns at most 1,000 keys per call (StartAfter counts on the first). */
  async *list(bucket: string, prefix: string, startAfter?: string): AsyncGenerator<ListedObject> {
    let token: string | undefined;
    do {
      const res = await this.s3.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix,
          ...(token ? { ContinuationToken: token } : { StartAfter: startAfter }),
        }),
      );
      for (const obj of res.Contents ?? []) if (obj.Key) yield { key: obj.Key, etag: obj.ETag ?? '' };
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }
}
