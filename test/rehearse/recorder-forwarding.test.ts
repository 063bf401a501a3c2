import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRecordingProxy } from '../../scripts/rehearse/iam/recorder';

const signed = (principal: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=${principal}/20261126/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
  'x-amz-target': 'DynamoDB_20120810.GetItem',
  'content-type': 'application/x-amz-json-1.0',
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the recording proxy', () => {
  it('names its endpoints in the variables the SDK reads', async () => {
    const proxy = await startRecordingProxy({
      targets: { dynamodb: 'http://127.0.0.1:1', s3: 'http://127.0.0.1:1' },
    });
    try {
      expect(proxy.endpointEnv()).toEqual({
        AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoints.dynamodb,
        AWS_ENDPOINT_URL_S3: proxy.endpoints.s3,
      });
    } finally {
      await proxy.close();
    }
  });

  it('answers 502 when the stand-in is down, and still records the call, with status 0', async () => {
    const proxy = await startRecordingProxy({
      targets: { dynamodb: `http://127.0.0.1:${await closedPort()}` },
    });
    try {
      const answer = await fetch(proxy.endpoints.dynamodb!, {
        method: 'POST',
        headers: signed('EngineRole'),
        body: JSON.stringify({ TableName: 'channels', Key: {} }),
      });
      expect(answer.status).toBe(502);
      expect(proxy.calls().map((c) => [c.principal, c.action, c.status])).toEqual([
        ['EngineRole', 'dynamodb:GetItem', 0],
      ]);
    } finally {
      await proxy.close();
    }
  });
});
