/** The extractor of each service the recording proxy serves. */
import type { AwsService } from '../calls';
import { extractCloudwatch } from './cloudwatch';
import { extractDynamodb } from './dynamodb';
import { extractEcs } from './ecs';
import type { Extractor } from './extracted';
import { extractKms } from './kms';
import { extractLogs } from './logs';
import { extractS3, s3NeedsBody } from './s3';
import { extractSecretsManager } from './secretsmanager';
import { extractSqs } from './sqs';
import { extractSsm } from './ssm';

export const EXTRACTORS: Record<AwsService, Extractor> = {
  dynamodb: extractDynamodb,
  s3: extractS3,
  sqs: extractSqs,
  ssm: extractSsm,
  secretsmanager: extractSecretsManager,
  ecs: extractEcs,
  logs: extractLogs,
  cloudwatch: extractCloudwatch,
  kms: extractKms,
};

/** Whether the extractor reads the request's body (S3 object bodies are streamed through unread). */
export function needsBody(service: AwsService, method: string, query: URLSearchParams): boolean {
  return service === 's3' ? s3NeedsBody(method, query) : true;
}
