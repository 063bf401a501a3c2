import { DeleteMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { type AwsTarget, startAwsTarget } from './support/aws-target';
import { signedAs } from './support/client-config';

const QUEUE_URL = 'http://127.0.0.1:9999/000000000000/onair-test-autoabr-jobs';
const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:onair-test-autoabr-jobs';

describe('the recording proxy, for SQS', () => {
  let target: AwsTarget;
  let proxy: RecordingProxy;
  let sqs: SQSClient;
  beforeAll(async () => {
    target = await startAwsTarget();
    proxy = await startRecordingProxy({ targets: { sqs: target.url } });
    sqs = new SQSClient({
      ...signedAs('DispatcherRole', proxy.endpoints.sqs!),
      useQueueUrlAsEndpoint: false,
    });
  });
  afterAll(async () => {
    sqs?.destroy();
    await proxy?.close();
    await target?.close();
  });
  const callsOf = (operation: string) => proxy.calls().filter((c) => c.operation === operation);

  it("records a JSON-protocol SendMessage on the queue named by the URL's last segment, in the rehearsal's account", async () => {
    await sqs.send(new SendMessageCommand({ QueueUrl: QUEUE_URL, MessageBody: '{"job":1}' }));
    expect(callsOf('SendMessage').map((c) => [c.principal, c.action, c.resources])).toEqual([
      ['DispatcherRole', 'sqs:SendMessage', [QUEUE_ARN]],
    ]);
  });

  it('records a batch as the single-message action', async () => {
    await sqs.send(
      new DeleteMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: [{ Id: '1', ReceiptHandle: 'r' }] }),
    );
    expect(callsOf('DeleteMessageBatch').map((c) => [c.action, c.resources])).toEqual([
      ['sqs:DeleteMessage', [QUEUE_ARN]],
    ]);
  });

  it('records a query-protocol request by its Action parameter', async () => {
    await fetch(proxy.endpoints.sqs!, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization:
          'AWS4-HMAC-SHA256 Credential=EngineRole/20261126/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: new URLSearchParams({ Action: 'ReceiveMessage', QueueUrl: QUEUE_URL }).toString(),
    });
    expect(callsOf('ReceiveMessage').map((c) => [c.principal, c.action, c.resources])).toEqual([
      ['EngineRole', 'sqs:ReceiveMessage', [QUEUE_ARN]],
    ]);
  });
});
