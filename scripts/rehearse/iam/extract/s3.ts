/**
 * S3 (REST, path-style `/<bucket>/<key>`: the project's clients use path style whenever an endpoint
 * is set, core/aws.ts). Method, key and sub-resource give the action; HeadObject is s3:GetObject,
 * HeadBucket s3:ListBucket, every multipart step s3:PutObject, CopyObject also s3:GetObject on the source.
 */
import { type AwsEnv, arnOf } from '../aws-env';
import type { Authorization } from '../calls';
import type { Extractor } from './extracted';
import type { RawRequest } from './request';

/** Bucket sub-resources (`?policy`) and the actions of GET, PUT and DELETE on them. */
const BUCKET_SUBRESOURCE: Record<string, [get: string, put: string, del: string]> = {
  policy: ['GetBucketPolicy', 'PutBucketPolicy', 'DeleteBucketPolicy'],
  cors: ['GetBucketCORS', 'PutBucketCORS', 'PutBucketCORS'],
  lifecycle: ['GetLifecycleConfiguration', 'PutLifecycleConfiguration', 'PutLifecycleConfiguration'],
  tagging: ['GetBucketTagging', 'PutBucketTagging', 'PutBucketTagging'],
  versioning: ['GetBucketVersioning', 'PutBucketVersioning', 'PutBucketVersioning'],
  notification: ['GetBucketNotification', 'PutBucketNotification', 'PutBucketNotification'],
  acl: ['GetBucketAcl', 'PutBucketAcl', 'PutBucketAcl'],
  location: ['GetBucketLocation', 'GetBucketLocation', 'GetBucketLocation'],
  encryption: ['GetEncryptionConfiguration', 'PutEncryptionConfiguration', 'PutEncryptionConfiguration'],
  uploads: ['ListBucketMultipartUploads', 'ListBucketMultipartUploads', 'ListBucketMultipartUploads'],
  versions: ['ListBucketVersions', 'ListBucketVersions', 'ListBucketVersions'],
};

/** Object sub-resources and the actions of GET, PUT and DELETE on them. */
const OBJECT_SUBRESOURCE: Record<string, [get: string, put: string, del: string]> = {
  tagging: ['GetObjectTagging', 'PutObjectTagging', 'DeleteObjectTagging'],
  acl: ['GetObjectAcl', 'PutObjectAcl', 'PutObjectAcl'],
  retention: ['GetObjectRetention', 'PutObjectRetention', 'PutObjectRetention'],
  'legal-hold': ['GetObjectLegalHold', 'PutObjectLegalHold', 'PutObjectLegalHold'],
  attributes: ['GetObjectAttributes', 'GetObjectAttributes', 'GetObjectAttributes'],
};

/** The action on a given version (`?versionId=`), where IAM has one of its own. */
const VERSIONED: Record<string, string> = {
  GetObject: 'GetObjectVersion',
  GetObjectTagging: 'GetObjectVersionTagging',
  GetObjectAcl: 'GetObjectVersionAcl',
  GetObjectAttributes: 'GetObjectVersionAttributes',
  PutObjectTagging: 'PutObjectVersionTagging',
  PutObjectAcl: 'PutObjectVersionAcl',
  DeleteObject: 'DeleteObjectVersion',
  DeleteObjectTagging: 'DeleteObjectVersionTagging',
};

/** Only DeleteObjects names its objects in the body; every other body is streamed, not read. */
export function s3NeedsBody(method: string, query: URLSearchParams): boolean {
  return method === 'POST' && query.has('delete');
}

export const extractS3: Extractor = (request, env) => {
  const [bucket, key] = bucketAndKey(request.path);
  const { method, query } = request;
  const s3 = (action: string, resource: string): Authorization => ({
    action: `s3:${action}`,
    resources: [resource],
  });
  if (!bucket) return { operation: 'ListBuckets', authorizations: [s3('ListAllMyBuckets', '*')] };
  const bucketArn = arnOf(env, 's3', bucket);
  if (key === undefined) return bucketCall(request, bucketArn, s3);
  const objectArn = `${bucketArn}/${key}`;
  const pick = (i: 0 | 1 | 2) => {
    for (const [name, actions] of Object.entries(OBJECT_SUBRESOURCE)) if (query.has(name)) return actions[i];
    return undefined;
  };
  const version = (action: string) => (query.has('versionId') ? (VERSIONED[action] ?? action) : action);
  switch (method) {
    case 'GET':
    case 'HEAD': {
      if (query.has('uploadId'))
        return { operation: 'ListParts', authorizations: [s3('ListMultipartUploadParts', objectArn)] };
      const sub = pick(0);
      if (sub) return { operation: sub, authorizations: [s3(version(sub), objectArn)] };
      return {
        operation: method === 'HEAD' ? 'HeadObject' : 'GetObject',
        authorizations: [s3(version('GetObject'), objectArn)],
      };
    }
    case 'PUT': {
      const sub = pick(1);
      if (sub) return { operation: sub, authorizations: [s3(version(sub), objectArn)] };
      return putObject(request, objectArn, env, s3);
    }
    case 'POST': {
      const operation = query.has('uploads')
        ? 'CreateMultipartUpload'
        : query.has('uploadId')
          ? 'CompleteMultipartUpload'
          : query.has('restore')
            ? 'RestoreObject'
            : 'PostObject';
      return {
        operation,
        authorizations: [s3(operation === 'RestoreObject' ? 'RestoreObject' : 'PutObject', objectArn)],
      };
    }
    case 'DELETE': {
      if (query.has('uploadId'))
        return { operation: 'AbortMultipartUpload', authorizations: [s3('AbortMultipartUpload', objectArn)] };
      const sub = pick(2);
      if (sub) return { operation: sub, authorizations: [s3(version(sub), objectArn)] };
      return { operation: 'DeleteObject', authorizations: [s3(version('DeleteObject'), objectArn)] };
    }
    default:
      return { operation: method, authorizations: [s3('Unknown', objectArn)] };
  }
};

function bucketCall(request: RawRequest, bucketArn: string, s3: (a: string, r: string) => Authorization) {
  const { method, query } = request;
  if (method === 'POST' && query.has('delete')) {
    // DeleteObjects: each named object is authorized as s3:DeleteObject (DeleteObjectVersion with a version).
    const body = request.body.toString('utf8');
    const objects = [...body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map((m) => m[1]!);
    const arns = (versioned: boolean) =>
      objects
        .filter((o) => o.includes('<VersionId>') === versioned)
        .map((o) => `${bucketArn}/${xmlText(/<Key>([\s\S]*?)<\/Key>/.exec(o)?.[1] ?? '')}`);
    const authorizations = [s3('DeleteObject', ''), s3('DeleteObjectVersion', '')]
      .map((a, i) => ({ ...a, resources: arns(i === 1) }))
      .filter((a) => a.resources.length > 0);
    return { operation: 'DeleteObjects', authorizations };
  }
  const index = method === 'PUT' ? 1 : method === 'DELETE' ? 2 : 0;
  for (const [name, actions] of Object.entries(BUCKET_SUBRESOURCE))
    if (query.has(name))
      return { operation: actions[index], authorizations: [s3(actions[index], bucketArn)] };
  if (method === 'PUT') return { operation: 'CreateBucket', authorizations: [s3('CreateBucket', bucketArn)] };
  if (method === 'DELETE')
    return { operation: 'DeleteBucket', authorizations: [s3('DeleteBucket', bucketArn)] };
  const operation =
    method === 'HEAD' ? 'HeadBucket' : query.get('list-type') === '2' ? 'ListObjectsV2' : 'ListObjects';
  return { operation, authorizations: [s3('ListBucket', bucketArn)] };
}

function putObject(
  request: RawRequest,
  objectArn: string,
  env: AwsEnv,
  s3: (a: string, r: string) => Authorization,
) {
  const { headers, query } = request;
  const part = query.has('partNumber') && query.has('uploadId');
  const copySource = headers['x-amz-copy-source'];
  const authorizations = [s3('PutObject', objectArn)];
  if (typeof copySource === 'string') {
    const [source, version] = decodeURIComponent(copySource).replace(/^\//, '').split('?versionId=');
    authorizations.push(s3(version ? 'GetObjectVersion' : 'GetObject', arnOf(env, 's3', source!)));
  }
  if (headers['x-amz-tagging'] !== undefined && !part) authorizations.push(s3('PutObjectTagging', objectArn));
  if (headers['x-amz-acl'] !== undefined) authorizations.push(s3('PutObjectAcl', objectArn));
  const operation = part
    ? copySource
      ? 'UploadPartCopy'
      : 'UploadPart'
    : copySource
      ? 'CopyObject'
      : 'PutObject';
  return { operation, authorizations };
}

/** `[bucket, key]` of a path-style path; the key is undefined for a bucket-level request. */
function bucketAndKey(path: string): [string | undefined, string | undefined] {
  const [, bucket, ...rest] = path.split('/');
  if (!bucket) return [undefined, undefined];
  const key = rest.join('/');
  return [decodeURIComponent(bucket), rest.length && key ? decodeURIComponent(key) : undefined];
}

function xmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
