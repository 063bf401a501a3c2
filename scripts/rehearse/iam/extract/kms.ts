/** KMS (JSON 1.1, `TrentService.<Operation>`): authorized on the key, or the alias's ARN when named by alias. */
import { arnOf } from '../aws-env';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

export const extractKms: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('kms', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const key = str(input.KeyId);
  const resource = !key
    ? '*'
    : key.startsWith('arn:')
      ? key
      : arnOf(env, 'kms', key.startsWith('alias/') ? key : `key/${key}`);
  return { operation, authorizations: [{ action: `kms:${operation}`, resources: [resource] }] };
};
