/** The job store and queue every part of AutoABR shares, on DynamoDB and SQS. */
import { createLogger } from '../../../core/logger';
import type { AwsClients } from '../adapters/aws-clients';
import { DynamoJobStore } from '../adapters/dynamo-job-store';
import { SqsJobQueue } from '../adapters/sqs-job-queue';
import type { AwsConfig } from '../config/service-config';
import type { AttemptDeps } from '../worker/end-attempt';

export function buildAttemptDeps(aws: AwsConfig, clients: AwsClients): AttemptDeps {
  return {
    jobs: new DynamoJobStore(clients.ddb, aws.table),
    queue: new SqsJobQueue(clients.sqs, aws.queueUrl, aws.dlqUrl),
    now: Date.now,
    log: createLogger({ service: 'autoabr' }),
  };
}
