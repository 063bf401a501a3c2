/**
 * Creates every table, queue and bucket of core/resources.ts in the local cloud, through the
 * AWS APIs (so the definitions CDK deploys are exactly what runs locally). Idempotent: existing
 * resources are kept, which is how data survives a restart.
 */
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  type BucketDef,
  buckets,
  localName,
  type QueueDef,
  queues,
  type TableDef,
  tables,
} from '../core/resources';

const common = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

function attributeDefinitions(t: TableDef): AttributeDefinition[] {
  const keys = [t.partitionKey, t.sortKey, ...(t.indexes ?? []).flatMap((i) => [i.partitionKey, i.sortKey])];
  const byName = new Map<string, AttributeDefinition>();
  for (const k of keys) if (k) byName.set(k.name, { AttributeName: k.name, AttributeType: k.type });
  return [...byName.values()];
}

async function createTable(ddb: DynamoDBClient, t: TableDef, TableName: string): Promise<void> {
  try {
    await ddb.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeDefinitions(t),
        KeySchema: [
          { AttributeName: t.partitionKey.name, KeyType: 'HASH' },
          ...(t.sortKey ? [{ AttributeName: t.sortKey.name, KeyType: 'RANGE' as const }] : []),
        ],
        GlobalSecondaryIndexes: t.indexes?.length
          ? t.indexes.map((i) => ({
              IndexName: i.name,
              KeySchema: [
                { AttributeName: i.partitionKey.name, KeyType: 'HASH' as const },
                ...(i.sortKey ? [{ AttributeName: i.sortKey.name, KeyType: 'RANGE' as const }] : []),
              ],
              Projection: { ProjectionType: 'ALL' as const },
            }))
          : undefined,
      }),
    );
    if (t.ttlAttribute) {
      await ddb.send(
        new UpdateTimeToLiveCommand({
          TableName,
          TimeToLiveSpecification: { AttributeName: t.ttlAttribute, Enabled: true },
        }),
      );
    }
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
    await ddb.send(new DescribeTableCommand({ TableName }));
  }
}

async function createQueue(sqs: SQSClient, q: QueueDef): Promise<string> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: localName(`${q.id}-dlq`) }));
  const dlqAttrs = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const created = await sqs.send(
    new CreateQueueCommand({
      QueueName: localName(q.id),
      Attributes: {
        VisibilityTimeout: String(q.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn,
          maxReceiveCount: q.maxReceiveCount,
        }),
      },
    }),
  );
  if (!created.QueueUrl) throw new Error(`queue ${q.id} was not created`);
  return created.QueueUrl;
}

async function createBucket(s3: S3Client, b: BucketDef): Promise<void> {
  try {
    await s3.send(new CreateBucketCommand({ Bucket: localName(b.id) }));
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  }
}

export interface Endpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

/**
 * Creates everything and returns the environment runtime code needs to find it. `tablePrefix` sets one
 * cloud's tables apart in a DynamoDB Local that several share (the test run's one, test/support/).
 */
export async function provision(endpoints: Endpoints, tablePrefix = ''): Promise<Record<string, string>> {
  const ddb = new DynamoDBClient({ ...common, endpoint: endpoints.dynamodb });
  const sqs = new SQSClient({ ...common, endpoint: endpoints.sqs });
  const s3 = new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true });
  try {
    const env: Record<string, string> = {};
    for (const t of Object.values(tables) as TableDef[]) {
      const name = tablePrefix + localName(t.id);
      await createTable(ddb, t, name);
      env[t.env] = name;
    }
    for (const q of Object.values(queues) as QueueDef[]) env[q.env] = await createQueue(sqs, q);
    for (const b of Object.values(buckets) as BucketDef[]) {
      await createBucket(s3, b);
      env[b.env] = localName(b.id);
    }
    return env;
  } finally {
    ddb.destroy();
    sqs.destroy();
    s3.destroy();
  }
}
