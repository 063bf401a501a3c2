/**
 * The local cloud's tables, queues and buckets made from the synthesized TEMPLATE (not from
 * core/resources.ts): key schemas, indexes, TTL, queue settings and redrive as CloudFormation would
 * create them, under the names the lookup gives them (explicit names, else their logical ids). Returns
 * what the local cloud decides itself (each queue's URL), as overrides for the lookup.
 */
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Overrides, RehearsedTemplate } from './cloud';
import { type PhysicalLookup, resolve } from './iam/template';

export interface CloudEndpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

const client = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'rehearsal', secretAccessKey: 'rehearsal' },
};
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, passed through to the create calls
type Props = Record<string, any>;

const byType = (template: RehearsedTemplate, type: string) =>
  Object.entries(template.Resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, (r.Properties ?? {}) as Props] as const);

export async function provisionFromTemplate(
  template: RehearsedTemplate,
  endpoints: CloudEndpoints,
  lookup: PhysicalLookup,
): Promise<Overrides> {
  const ddb = new DynamoDBClient({ ...client, endpoint: endpoints.dynamodb });
  const sqs = new SQSClient({ ...client, endpoint: endpoints.sqs });
  const s3 = new S3Client({ ...client, endpoint: endpoints.s3, forcePathStyle: true });
  try {
    for (const type of ['AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table']) {
      for (const [id, p] of byType(template, type)) {
        const TableName = lookup.ref(id);
        await ddb.send(
          new CreateTableCommand({
            TableName,
            BillingMode: p.BillingMode ?? 'PAY_PER_REQUEST',
            AttributeDefinitions: p.AttributeDefinitions,
            KeySchema: p.KeySchema,
            GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
            LocalSecondaryIndexes: p.LocalSecondaryIndexes,
            ...(p.BillingMode === 'PROVISIONED' ? { ProvisionedThroughput: p.ProvisionedThroughput } : {}),
          }),
        );
        if (p.TimeToLiveSpecification?.Enabled)
          await ddb.send(
            new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification: p.TimeToLiveSpecification }),
          );
      }
    }
    const overrides: Overrides = {};
    // Dead-letter queues first, so a queue's redrive names a queue that exists.
    const queues = byType(template, 'AWS::SQS::Queue').sort(
      ([, a], [, b]) => Number(Boolean(a.RedrivePolicy)) - Number(Boolean(b.RedrivePolicy)),
    );
    for (const [id, p] of queues) {
      const attributes: Record<string, string> = {};
      for (const key of [
        'VisibilityTimeout',
        'MessageRetentionPeriod',
        'DelaySeconds',
        'ReceiveMessageWaitTimeSeconds',
      ])
        if (p[key] !== undefined) attributes[key] = String(p[key]);
      if (p.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(resolve(p.RedrivePolicy, lookup));
      const created = await sqs.send(
        new CreateQueueCommand({ QueueName: lookup.getAtt(id, 'QueueName'), Attributes: attributes }),
      );
      if (!created.QueueUrl) throw new Error(`queue ${id} was not created`);
      overrides[id] = { ref: created.QueueUrl, attrs: { QueueUrl: created.QueueUrl } };
    }
    for (const [id] of byType(template, 'AWS::S3::Bucket'))
      await s3.send(new CreateBucketCommand({ Bucket: lookup.ref(id) }));
    return overrides;
  } finally {
    ddb.destroy();
    sqs.destroy();
    s3.destroy();
  }
}
