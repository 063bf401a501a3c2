/**
 * AWS SDK v3 clients, created once per process. Endpoints come from the SDK's standard
 * `AWS_ENDPOINT_URL_<SERVICE>` variables, so the same code talks to AWS or to the local cloud.
 * S3 uses path-style addressing whenever a custom endpoint is configured (S3-compatible stores
 * rarely resolve virtual-host bucket names).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Region and credentials for a service whose settings say other than the SDK's defaults; `{}` is the
 * defaults. Passed to the client, never written into the environment (which every service shares).
 */
export interface ClientSettings {
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** A profile of the shared credentials file; the SDK then skips credentials from the environment. */
  profile?: string;
}

let ddb: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let s3: S3Client | undefined;

export function documentClient(): DynamoDBDocumentClient {
  ddb ??= createDocumentClient();
  return ddb;
}

export function sqsClient(): SQSClient {
  sqs ??= createSqsClient();
  return sqs;
}

export function s3Client(): S3Client {
  s3 ??= createS3Client();
  return s3;
}

/** A client of its own, for a service with its own settings (otherwise use `documentClient()`). */
export function createDocumentClient(settings: ClientSettings = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({ ...settings }), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

export function createSqsClient(settings: ClientSettings = {}): SQSClient {
  // With a custom endpoint, send there rather than to the host inside each queue URL.
  return new SQSClient({
    ...settings,
    useQueueUrlAsEndpoint: !(process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL),
  });
}

export function createS3Client(settings: ClientSettings = {}): S3Client {
  return new S3Client({
    ...settings,
    forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL),
  });
}
