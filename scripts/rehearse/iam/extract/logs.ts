/**
 * CloudWatch Logs (JSON 1.1, `Logs_20140328.<Operation>`): writes to a stream are authorized on
 * `log-group:<group>:log-stream:<stream>`, everything else on the group.
 */
import { arnOf } from '../aws-env';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

export const extractLogs: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('logs', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const group = str(input.logGroupName);
  const stream = str(input.logStreamName);
  const resource = !group
    ? '*'
    : stream
      ? arnOf(env, 'logs', `log-group:${group}:log-stream:${stream}`)
      : arnOf(env, 'logs', `log-group:${group}`);
  return { operation, authorizations: [{ action: `logs:${operation}`, resources: [resource] }] };
};
