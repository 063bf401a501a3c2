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

let ddb: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let s3: S3Client | undefined;

export function documentClient(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return ddb;
}

export function sqsClient(): SQSClient {
  // With a custom endpoint, send there rather than to the host inside each queue URL.
  sqs ??= new SQSClient({
    useQueueUrlAsEndpoint: !(process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL),
  });
  return sqs;
}

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL),
  });
  return s3;
}
