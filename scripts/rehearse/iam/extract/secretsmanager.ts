/**
 * Secrets Manager (JSON 1.1, `secretsmanager.<Operation>`). A secret named by its name rather than its
 * ARN gets an ARN without AWS's random six-character suffix; policies naming the full ARN then do
 * not match it, which the report shows as a denial to look at.
 */
import { arnOf } from '../aws-env';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

export const extractSecretsManager: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('secretsmanager', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const id = str(input.SecretId) ?? str(input.Name);
  const resource = !id ? '*' : id.startsWith('arn:') ? id : arnOf(env, 'secretsmanager', `secret:${id}`);
  return { operation, authorizations: [{ action: `secretsmanager:${operation}`, resources: [resource] }] };
};
