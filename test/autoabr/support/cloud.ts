/** The local cloud for AutoABR suites, its environment applied before any SDK client exists. */
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Route } from '../../../core/http';
import { createApiHandler } from '../../../core/http';
import { type Gateway, startGateway } from '../../../local/gateway';

export { startTestCloud as startCloud } from '../../support/local-cloud';

/** Clients of our own for arranging and inspecting state (the code under test uses core/aws.ts). */
export function testClients(env: Record<string, string>) {
  const common = { region: env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  return {
    s3: new S3Client({ ...common, endpoint: env.AWS_ENDPOINT_URL_S3, forcePathStyle: true }),
    sqs: new SQSClient({ ...common, endpoint: env.AWS_ENDPOINT_URL_SQS }),
  };
}

export function startApi(routes: Route[]): Promise<Gateway> {
  return startGateway('autoabr', createApiHandler(routes, { stage: 'test', maxBodyBytes: 64 * 1024 }), 0);
}
