/**
 * The AWS clients AutoABR's adapters use. With the SDK's default settings these are the process's
 * shared clients (core/aws.ts); with AutoABR's own region or credentials (config/cloud-config.ts)
 * they are clients of its own, so the other services in the same process are never affected. Every
 * one is bounded in time by core/aws.ts (AWS_CONNECT_TIMEOUT_MS, AWS_REQUEST_TIMEOUT_MS, AWS_MAX_ATTEMPTS).
 */
import { ECSClient } from '@aws-sdk/client-ecs';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  awsClientConfig,
  type ClientSettings,
  createDocumentClient,
  createS3Client,
  createSqsClient,
  documentClient,
  s3Client,
  sqsClient,
} from '../../../core/aws';

export interface AwsClients {
  ddb: DynamoDBDocumentClient;
  sqs: SQSClient;
  s3: S3Client;
}

export function awsClients(settings: ClientSettings): AwsClients {
  if (Object.keys(settings).length === 0) {
    return { ddb: documentClient(), sqs: sqsClient(), s3: s3Client() };
  }
  return {
    ddb: createDocumentClient(settings),
    sqs: createSqsClient(settings),
    s3: createS3Client(settings),
  };
}

/**
 * The dispatcher's ECS client (RunTask), bounded like the others: a hung ECS endpoint fails one launch
 * (the attempt is retried) instead of holding the dispatcher's tick until its Lambda times out.
 */
export const ecsClient = (settings: ClientSettings): ECSClient =>
  new ECSClient({ ...awsClientConfig(), ...settings });
