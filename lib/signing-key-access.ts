import * as iam from 'aws-cdk-lib/aws-iam';

/**
 * Read, and first-use creation, of the token signing key (an SSM SecureString): what every function
 * that verifies or mints onair tokens needs. SecureStrings under the AWS-managed key need no KMS grant.
 */
export const signingKeyAccess = (parameterArn: string): iam.PolicyStatement =>
  new iam.PolicyStatement({ actions: ['ssm:GetParameter', 'ssm:PutParameter'], resources: [parameterArn] });
