/**
 * The account and region the rehearsal pretends to be deployed in. The template's resolved policies
 * (default-lookup.ts) and the ARNs the recording proxy builds from each request (recorder.ts) both use
 * it, so a call's ARN and the policy's ARN agree exactly when the deployed policy would match.
 */
export interface AwsEnv {
  account: string;
  region: string;
  partition: string;
  urlSuffix: string;
  stackName: string;
}

export const DEFAULT_ENV: AwsEnv = {
  account: '123456789012',
  region: 'us-east-1',
  partition: 'aws',
  urlSuffix: 'amazonaws.com',
  stackName: 'onair',
};

export function awsEnv(partial: Partial<AwsEnv> = {}): AwsEnv {
  return { ...DEFAULT_ENV, ...partial };
}

/** `arn:<partition>:<service>:<region>:<account>:<resource>`; S3 and IAM ARNs leave out what they omit. */
export function arnOf(env: AwsEnv, service: string, resource: string): string {
  if (service === 's3') return `arn:${env.partition}:s3:::${resource}`;
  if (service === 'iam') return `arn:${env.partition}:iam::${env.account}:${resource}`;
  return `arn:${env.partition}:${service}:${env.region}:${env.account}:${resource}`;
}
