/**
 * The local cloud's tables, queues and buckets made from the synthesized TEMPLATE (not from
 * core/resources.ts): key schemas, indexes, TTL, queue settings and redrive as CloudFormation would
 * create them, named after their explicit names or their logical ids. Returns the physical names and
 * attributes, for the lookup that resolves every Ref and GetAtt.
 */
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type Overrides, type PhysicalLookup, resolve, type Template, withOverrides } from './interim-lookup';

export interface CloudEndpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

const client = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'rehearsal', secretAccessKey: 'rehearsal' },
};
type Props = Record<string, any>;

const byType = (template: Template, type: string) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type) as [string, { Properties: Props }][];

export async function provisionFromTemplate(
  template: Template,
  endpoints: CloudEndpoints,
  lookup: PhysicalLookup,
  env: { account: string; region: string },
): Promise<Overrides> {
  const overrides: Overrides = {};
  const { account, region } = env;
  const ddb = new DynamoDBClient({ ...client, endpoint: endpoints.dynamodb });
  const sqs = new SQSClient({ ...client, endpoint: endpoints.sqs });
  const s3 = new S3Client({ ...client, endpoint: endpoints.s3, forcePathStyle: true });
  try {
    for (const type of ['AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table']) {
      for (const [id, { Properties: p }] of byType(template, type)) {
        const name = p.TableName ?? id;
        await ddb.send(
          new CreateTableCommand({
            TableName: name,
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
            new UpdateTimeToLiveCommand({
              TableName: name,
              TimeToLiveSpecification: p.TimeToLiveSpecification,
            }),
          );
        overrides[id] = { ref: name, attrs: { Arn: `arn:aws:dynamodb:${region}:${account}:table/${name}` } };
      }
    }
    // Dead-letter queues first: a queue's redrive names its DLQ's ARN.
    const queues = byType(template, 'AWS::SQS::Queue').sort(
      ([, a], [, b]) =>
        Number(Boolean(a.Properties.RedrivePolicy)) - Number(Boolean(b.Properties.RedrivePolicy)),
    );
    for (const [id, { Properties: p }] of queues) {
      const name = p.QueueName ?? id;
      const attributes: Record<string, string> = {};
      for (const key of [
        'VisibilityTimeout',
        'MessageRetentionPeriod',
        'DelaySeconds',
        'ReceiveMessageWaitTimeSeconds',
      ])
        if (p[key] !== undefined) attributes[key] = String(p[key]);
      if (p.RedrivePolicy)
        attributes.RedrivePolicy = JSON.stringify(resolve(p.RedrivePolicy, withOverrides(lookup, overrides)));
      const created = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
      if (!created.QueueUrl) throw new Error(`queue ${id} was not created`);
      overrides[id] = {
        ref: created.QueueUrl,
        attrs: {
          Arn: `arn:aws:sqs:${region}:${account}:${name}`,
          QueueName: name,
          QueueUrl: created.QueueUrl,
        },
      };
    }
    for (const [id, { Properties: p }] of byType(template, 'AWS::S3::Bucket')) {
      const name = p.BucketName ?? id.toLowerCase();
      await s3.send(new CreateBucketCommand({ Bucket: name }));
      overrides[id] = {
        ref: name,
        attrs: { Arn: `arn:aws:s3:::${name}`, DomainName: `${name}.s3.amazonaws.com` },
      };
    }
    return overrides;
  } finally {
    ddb.destroy();
    sqs.destroy();
    s3.destroy();
  }
}
