/**
 * CloudWatch metrics: PutMetricData and the other calls the code might make have no resource-level
 * permissions, so only the operation matters. Read from the query protocol (`Action=`), the JSON
 * protocol (`X-Amz-Target`) or the Smithy RPC v2 path (`/service/GraniteServiceVersion20100801/operation/<Op>`).
 */
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, queryOperation } from './request';

export const extractCloudwatch: Extractor = (request) => {
  const operation =
    /\/operation\/([A-Za-z]+)$/.exec(request.path)?.[1] ??
    (request.headers['x-amz-target']
      ? jsonOperation(request)?.operation
      : queryOperation(request)?.operation);
  if (!operation) return unreadable('cloudwatch', 'no operation found');
  return { operation, authorizations: [{ action: `cloudwatch:${operation}`, resources: ['*'] }] };
};
