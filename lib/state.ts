/** DynamoDB tables, SQS queues (each with a dead-letter queue) and S3 buckets, from core/resources.ts. */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import {
  type BucketDef,
  buckets,
  type KeyDef,
  type QueueDef,
  queues,
  type TableDef,
  tables,
} from '../core/resources';

type Tables = { [K in keyof typeof tables]: dynamodb.TableV2 };
type Queues = { [K in keyof typeof queues]: sqs.Queue };
type Buckets = { [K in keyof typeof buckets]: s3.Bucket };

const attr = (k: KeyDef): dynamodb.Attribute => ({
  name: k.name,
  type: k.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

export class State extends Construct {
  readonly tables: Tables;
  readonly queues: Queues;
  readonly buckets: Buckets;
  /** Environment variables that let runtime code find every resource (names per resources.ts). */
  readonly env: Record<string, string> = {};

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    // Production data outlives the stack, and a table cannot be deleted by any call while protected.
    const prod = props.stage === 'prod';
    const retain = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const makeTable = (def: TableDef) => {
      const table = new dynamodb.TableV2(this, `Table-${def.id}`, {
        partitionKey: attr(def.partitionKey),
        sortKey: def.sortKey && attr(def.sortKey),
        billing: dynamodb.Billing.onDemand(),
        timeToLiveAttribute: def.ttlAttribute,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: prod },
        deletionProtection: prod,
        removalPolicy: retain,
        globalSecondaryIndexes: def.indexes?.map((i) => ({
          indexName: i.name,
          partitionKey: attr(i.partitionKey),
          sortKey: i.sortKey && attr(i.sortKey),
        })),
      });
      this.env[def.env] = table.tableName;
      return table;
    };
    this.tables = Object.fromEntries(Object.entries(tables).map(([k, d]) => [k, makeTable(d)])) as Tables;

    const makeQueue = (def: QueueDef) => {
      // Named `<queue>-dlq`, as locally: consumers find a queue's DLQ by that suffix.
      const dlq = new sqs.Queue(this, `Queue-${def.id}-dlq`, {
        queueName: `onair-${props.stage}-${def.id}-dlq`,
        retentionPeriod: Duration.days(14),
        enforceSSL: true,
      });
      const queue = new sqs.Queue(this, `Queue-${def.id}`, {
        queueName: `onair-${props.stage}-${def.id}`,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
        enforceSSL: true,
      });
      this.env[def.env] = queue.queueUrl;
      return queue;
    };
    this.queues = Object.fromEntries(Object.entries(queues).map(([k, d]) => [k, makeQueue(d)])) as Queues;

    const makeBucket = (def: BucketDef) => {
      const bucket = new s3.Bucket(this, `Bucket-${def.id}`, {
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        encryption: s3.BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        removalPolicy: retain,
        autoDeleteObjects: !prod,
      });
      this.env[def.env] = bucket.bucketName;
      NagSuppressions.addResourceSuppressions(bucket, [
        {
          id: 'AwsSolutions-S1',
          reason:
            'Private bucket (public access blocked, TLS only) written by onair roles alone; CloudTrail S3 data events are the audit trail if one is needed, not a second log bucket',
        },
      ]);
      return bucket;
    };
    this.buckets = Object.fromEntries(Object.entries(buckets).map(([k, d]) => [k, makeBucket(d)])) as Buckets;
  }
}
