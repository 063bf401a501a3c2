import { describe, expect, it } from 'vitest';
import { DEFAULT_ENV } from '../../scripts/rehearse/iam/aws-env';
import { extractS3 } from '../../scripts/rehearse/iam/extract/s3';

const request = (method: string, url: string, headers: Record<string, string> = {}) => {
  const parsed = new URL(url, 'http://s3');
  return { method, path: parsed.pathname, query: parsed.searchParams, headers, body: Buffer.alloc(0) };
};
const extract = (...args: Parameters<typeof request>) => {
  const { operation, authorizations } = extractS3(request(...args), DEFAULT_ENV);
  return [operation, authorizations.map((a) => [a.action, a.resources[0]])];
};

describe('S3 requests as IAM authorizations', () => {
  it('authorizes every step of a multipart upload as s3:PutObject', () => {
    expect([
      extract('POST', '/media/big.mp4?uploads'),
      extract('PUT', '/media/big.mp4?partNumber=1&uploadId=u'),
      extract('POST', '/media/big.mp4?uploadId=u'),
    ]).toEqual([
      ['CreateMultipartUpload', [['s3:PutObject', 'arn:aws:s3:::media/big.mp4']]],
      ['UploadPart', [['s3:PutObject', 'arn:aws:s3:::media/big.mp4']]],
      ['CompleteMultipartUpload', [['s3:PutObject', 'arn:aws:s3:::media/big.mp4']]],
    ]);
  });

  it('authorizes a copy as a put of the target and a get of the source', () => {
    expect(extract('PUT', '/media/b', { 'x-amz-copy-source': '/other/a%20b' })).toEqual([
      'CopyObject',
      [
        ['s3:PutObject', 'arn:aws:s3:::media/b'],
        ['s3:GetObject', 'arn:aws:s3:::other/a b'],
      ],
    ]);
  });

  it('authorizes an abort as s3:AbortMultipartUpload and a versioned delete as s3:DeleteObjectVersion', () => {
    expect([extract('DELETE', '/media/k?uploadId=u'), extract('DELETE', '/media/k?versionId=3')]).toEqual([
      ['AbortMultipartUpload', [['s3:AbortMultipartUpload', 'arn:aws:s3:::media/k']]],
      ['DeleteObject', [['s3:DeleteObjectVersion', 'arn:aws:s3:::media/k']]],
    ]);
  });

  it('authorizes a bucket-level GET by its sub-resource, and a plain one as s3:ListBucket', () => {
    expect([
      extract('GET', '/media?location'),
      extract('GET', '/media?list-type=2&prefix=a'),
      extract('HEAD', '/media'),
    ]).toEqual([
      ['GetBucketLocation', [['s3:GetBucketLocation', 'arn:aws:s3:::media']]],
      ['ListObjectsV2', [['s3:ListBucket', 'arn:aws:s3:::media']]],
      ['HeadBucket', [['s3:ListBucket', 'arn:aws:s3:::media']]],
    ]);
  });

  it("authorizes a request on one version as that version's action where IAM has one, and as the plain action where not", () => {
    expect([
      extract('GET', '/media/k?tagging&versionId=3'),
      extract('GET', '/media/k?retention&versionId=3'),
    ]).toEqual([
      ['GetObjectTagging', [['s3:GetObjectVersionTagging', 'arn:aws:s3:::media/k']]],
      ['GetObjectRetention', [['s3:GetObjectRetention', 'arn:aws:s3:::media/k']]],
    ]);
  });
});
