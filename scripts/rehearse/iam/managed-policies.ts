/**
 * The AWS managed policies CDK attaches to the roles it makes, by name (the ARN's part after
 * `:policy/`). AWS publishes them; only their statements are kept here. A role attaching a managed
 * policy not listed is reported (principals.ts `unknownManagedPolicies`), never silently granted.
 */
import type { PolicyDocument } from './policy';

const LOGS_WRITE = ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'];

export const AWS_MANAGED_POLICIES: Record<string, PolicyDocument> = {
  'service-role/AWSLambdaBasicExecutionRole': {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: LOGS_WRITE, Resource: '*' }],
  },
  'service-role/AWSLambdaVPCAccessExecutionRole': {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          ...LOGS_WRITE,
          'ec2:CreateNetworkInterface',
          'ec2:DescribeNetworkInterfaces',
          'ec2:DescribeSubnets',
          'ec2:DeleteNetworkInterface',
          'ec2:AssignPrivateIpAddresses',
          'ec2:UnassignPrivateIpAddresses',
        ],
        Resource: '*',
      },
    ],
  },
  'service-role/AmazonECSTaskExecutionRolePolicy': {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ecr:GetAuthorizationToken',
          'ecr:BatchCheckLayerAvailability',
          'ecr:GetDownloadUrlForLayer',
          'ecr:BatchGetImage',
          'logs:CreateLogStream',
          'logs:PutLogEvents',
        ],
        Resource: '*',
      },
    ],
  },
};

/** The document of an AWS managed policy ARN (`arn:<partition>:iam::aws:policy/<name>`), if known. */
export function awsManagedPolicy(arn: string): PolicyDocument | undefined {
  const match = /^arn:[^:]+:iam::aws:policy\/(.+)$/.exec(arn);
  return match ? AWS_MANAGED_POLICIES[match[1]!] : undefined;
}
