/**
 * What each role may do to a table or queue, named by what the code does with it: the actions our code
 * sends, no more. CDK's grantReadWriteData / grantConsumeMessages bundles add actions no onair code
 * calls (BatchGetItem, ConditionCheckItem, DescribeTable, stream reads on tables without streams,
 * GetQueueUrl/GetQueueAttributes for queues whose URLs the environment gives); the rehearsal's IAM report
 * (docs/rehearsal.md) lists what was granted and never used, and these sets are what was left.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

/** GetItem and Query (the table and its indexes). */
export const READ_ITEMS = ['dynamodb:GetItem', 'dynamodb:Query'] as const;
/** Single-item writes; TransactWriteItems is authorized as these, item by item. */
export const WRITE_ITEMS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const;
/** Whole-table reads (the schedule service lists channels across tenants; the fleet counts them). */
export const SCAN = ['dynamodb:Scan'] as const;
/** Batch writes (core/dynamo/queries.ts batchDelete: retention, channel deletes; batchPut: the as-run log). */
export const BATCH_WRITE = ['dynamodb:BatchWriteItem'] as const;

type TableAction = (typeof READ_ITEMS | typeof WRITE_ITEMS | typeof SCAN | typeof BATCH_WRITE)[number];

/** Grants exactly these actions on the table and its indexes. */
export function grantTable(
  table: dynamodb.ITableV2,
  grantee: iam.IGrantable,
  ...actionSets: (readonly TableAction[])[]
): iam.Grant {
  return table.grant(grantee, ...new Set(actionSets.flat()));
}

/** Receiving, extending and deleting messages: a consumer of a queue whose URL it is given. */
export const CONSUME = ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage'] as const;
/** Extending and deleting a message another process received (the AutoABR worker's job message). */
export const SETTLE = ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage'] as const;
export const SEND = ['sqs:SendMessage'] as const;

type QueueAction = (typeof CONSUME | typeof SETTLE | typeof SEND)[number];

/** Grants exactly these actions on the queue (its KMS key, if any, is not ours to grant here). */
export function grantQueue(
  queue: sqs.IQueue,
  grantee: iam.IGrantable,
  ...actionSets: (readonly QueueAction[])[]
): iam.Grant {
  return queue.grant(grantee, ...new Set(actionSets.flat()));
}
