/**
 * SSM Parameter Store (JSON 1.1, `AmazonSSM.<Operation>`). A parameter's ARN drops the name's leading
 * slash. Decrypting a SecureString with the AWS managed key (alias/aws/ssm) needs no identity grant;
 * a customer managed key would also need kms:Decrypt, which this cannot see from the request.
 */
import { type AwsEnv, arnOf } from '../aws-env';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

export const extractSsm: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('ssm', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const names = Array.isArray(input.Names) ? input.Names.map(String) : [str(input.Name) ?? str(input.Path)];
  const resources = names.filter((n): n is string => Boolean(n)).map((n) => parameterArn(env, n));
  return {
    operation,
    authorizations: [{ action: `ssm:${operation}`, resources: resources.length ? resources : ['*'] }],
  };
};

/** `name` may carry a version or label selector (`/a/b:3`), which is not part of the resource. */
function parameterArn(env: AwsEnv, name: string): string {
  if (name.startsWith('arn:')) return name;
  return arnOf(env, 'ssm', `parameter/${name.split(':')[0]!.replace(/^\//, '')}`);
}
