import { createHash, randomBytes } from 'node:crypto';
import {
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { type AwsTarget, startAwsTarget } from './support/aws-target';
import { signedAs } from './support/client-config';

describe('the recording proxy, for S3 (path style, as core/aws.ts uses it with an endpoint)', () => {
  let target: AwsTarget;
  let proxy: RecordingProxy;
  let s3: S3Client;
  beforeAll(async () => {
    target = await startAwsTarget();
    proxy = await startRecordingProxy({ targets: { s3: target.url } });
    s3 = new S3Client({ ...signedAs('WorkerTaskRole', proxy.endpoints.s3!), forcePathStyle: true });
  });
  afterAll(async () => {
    s3?.destroy();
    await proxy?.close();
    await target?.close();
  });
  const callsOf = (operation: string) => proxy.calls().filter((c) => c.operation === operation);

  it('forwards an upload byte for byte and records it as s3:PutObject on the object', async () => {
    const body = randomBytes(5 * 1024 * 1024);
    await s3.send(new PutObjectCommand({ Bucket: 'autoabr', Key: 'jobs/a b/ref.mp4', Body: body }));
    const put = target.arrived.find((a) => a.method === 'PUT');
    expect(put?.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(callsOf('PutObject')).toEqual([
      expect.objectContaining({
        principal: 'WorkerTaskRole',
        action: 's3:PutObject',
        resources: ['arn:aws:s3:::autoabr/jobs/a b/ref.mp4'],
        status: 200,
      }),
    ]);
  });

  it('records HeadObject as s3:GetObject and ListObjectsV2 as s3:ListBucket on the bucket', async () => {
    await s3.send(new HeadObjectCommand({ Bucket: 'autoabr', Key: 'k' }));
    await s3.send(new ListObjectsV2Command({ Bucket: 'autoabr', Prefix: 'jobs/' }));
    expect(callsOf('HeadObject').map((c) => [c.action, c.resources])).toEqual([
      ['s3:GetObject', ['arn:aws:s3:::autoabr/k']],
    ]);
    expect(callsOf('ListObjectsV2').map((c) => [c.action, c.resources])).toEqual([
      ['s3:ListBucket', ['arn:aws:s3:::autoabr']],
    ]);
  });

  it('records DeleteObjects as s3:DeleteObject on each object it names', async () => {
    await s3.send(
      new DeleteObjectsCommand({ Bucket: 'autoabr', Delete: { Objects: [{ Key: 'a' }, { Key: 'b&c' }] } }),
    );
    expect(callsOf('DeleteObjects').map((c) => [c.action, c.resources])).toEqual([
      ['s3:DeleteObject', ['arn:aws:s3:::autoabr/a', 'arn:aws:s3:::autoabr/b&c']],
    ]);
  });
});
