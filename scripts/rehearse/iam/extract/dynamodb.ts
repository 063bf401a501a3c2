/**
 * DynamoDB (JSON 1.0, `X-Amz-Target: DynamoDB_20120810.<Operation>`). Batch operations are authorized
 * as themselves on each table; transactions as the item-level action of each of their items
 * (TransactWriteItems has no IAM action of its own).
 */
import { type AwsEnv, arnOf } from '../aws-env';
import type { Authorization } from '../calls';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

const TRANSACT_ACTION: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

export const extractDynamodb: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('dynamodb', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const table = (name: string) => tableArn(env, name);
  const on = (action: string, resources: string[]): Authorization => ({
    action: `dynamodb:${action}`,
    resources,
  });
  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return {
        operation,
        authorizations: [on(operation, Object.keys(record(input.RequestItems)).map(table))],
      };
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const byAction = new Map<string, Set<string>>();
      for (const item of (input.TransactItems ?? []) as Record<string, { TableName?: string }>[])
        for (const [kind, body] of Object.entries(item)) {
          const action = TRANSACT_ACTION[kind] ?? kind;
          byAction.set(action, (byAction.get(action) ?? new Set()).add(table(body.TableName ?? '')));
        }
      return { operation, authorizations: [...byAction].map(([action, arns]) => on(action, [...arns])) };
    }
    case 'ListTables':
    case 'ListGlobalTables':
    case 'DescribeLimits':
    case 'DescribeEndpoints':
      return { operation, authorizations: [on(operation, ['*'])] };
    default: {
      const name = str(input.TableName) ?? str(input.ResourceArn);
      if (!name) return { operation, authorizations: [on(operation, ['*'])] };
      const index = str(input.IndexName);
      const arn =
        index && (operation === 'Query' || operation === 'Scan')
          ? `${table(name)}/index/${index}`
          : table(name);
      return { operation, authorizations: [on(operation, [arn])] };
    }
  }
};

function tableArn(env: AwsEnv, name: string): string {
  return name.startsWith('arn:') ? name : arnOf(env, 'dynamodb', `table/${name}`);
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
