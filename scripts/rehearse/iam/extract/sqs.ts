/**
 * SQS, in its JSON protocol (`X-Amz-Target: AmazonSQS.<Operation>`, today's SDKs) and its query
 * protocol (`Action=<Operation>`, older clients). A batch is authorized as its single-message action.
 */
import { arnOf } from '../aws-env';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, queryOperation, str } from './request';

const WILDCARD_ONLY = new Set(['ListQueues']);

export const extractSqs: Extractor = (request, env) => {
  const json = jsonOperation(request);
  const query = json ? undefined : queryOperation(request);
  const operation = json?.operation ?? query?.operation;
  if (!operation) return unreadable('sqs', 'neither X-Amz-Target nor Action');
  const param = (name: string) => (json ? str(json.input[name]) : (query?.params.get(name) ?? undefined));
  const action = `sqs:${operation.replace(/Batch$/, '')}`;
  const name = queueName(param('QueueUrl')) ?? param('QueueName');
  const owner = param('QueueOwnerAWSAccountId');
  const resource =
    name && !WILDCARD_ONLY.has(operation)
      ? arnOf(owner ? { ...env, account: owner } : env, 'sqs', name)
      : '*';
  return { operation, authorizations: [{ action, resources: [resource] }] };
};

/** A queue URL's last path segment is the queue's name, whatever host (AWS or a stand-in) it names. */
function queueName(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const last = url.split('?')[0]!.replace(/\/+$/, '').split('/').pop();
  return last || undefined;
}
