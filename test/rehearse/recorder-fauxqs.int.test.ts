import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fauxqs, startFauxqs } from '../../local/fauxqs';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { signedAs } from './support/client-config';

describe('the recording proxy in front of the S3 and SQS stand-in the rehearsal uses (fauxqs)', () => {
  let fauxqs: Fauxqs;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    fauxqs = await startFauxqs();
    proxy = await startRecordingProxy({ targets: { s3: fauxqs.endpoint, sqs: fauxqs.endpoint } });
  });
  afterAll(async () => {
    await proxy?.close();
    await fauxqs?.stop();
  });

  it('stores an object put through it and gives it back unchanged, recording both calls', async () => {
    await new S3Client({ ...signedAs('setup', fauxqs.endpoint), forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'media' }),
    );
    const s3 = new S3Client({ ...signedAs('WorkerTaskRole', proxy.endpoints.s3!), forcePathStyle: true });
    const body = randomBytes(3 * 1024 * 1024);
    await s3.send(new PutObjectCommand({ Bucket: 'media', Key: 'refs/a.mp4', Body: body }));
    const got = await s3.send(new GetObjectCommand({ Bucket: 'media', Key: 'refs/a.mp4' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    s3.destroy();
    expect(proxy.calls().map((c) => [c.principal, c.action, c.resources, c.status])).toEqual([
      ['WorkerTaskRole', 's3:PutObject', ['arn:aws:s3:::media/refs/a.mp4'], 200],
      ['WorkerTaskRole', 's3:GetObject', ['arn:aws:s3:::media/refs/a.mp4'], 200],
    ]);
  });

  it('delivers a message sent through it, recording the send and the receive on the queue', async () => {
    const direct = new SQSClient(signedAs('setup', fauxqs.endpoint));
    const { QueueUrl } = await direct.send(new CreateQueueCommand({ QueueName: 'jobs' }));
    direct.destroy();
    const sqs = new SQSClient({
      ...signedAs('DispatcherRole', proxy.endpoints.sqs!),
      useQueueUrlAsEndpoint: false,
    });
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'job-1' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
    sqs.destroy();
    expect(Messages?.map((m) => m.Body)).toEqual(['job-1']);
    expect(
      proxy
        .calls()
        .filter((c) => c.service === 'sqs')
        .map((c) => [c.action, c.resources]),
    ).toEqual([
      ['sqs:SendMessage', ['arn:aws:sqs:us-east-1:123456789012:jobs']],
      ['sqs:ReceiveMessage', ['arn:aws:sqs:us-east-1:123456789012:jobs']],
    ]);
  });
});
