/** What the recording proxy records: one AWS authorization check per action and resource set. */
export const AWS_SERVICES = [
  'dynamodb',
  's3',
  'sqs',
  'ssm',
  'secretsmanager',
  'ecs',
  'logs',
  'cloudwatch',
  'kms',
] as const;

export type AwsService = (typeof AWS_SERVICES)[number];

/** The SDK's `AWS_ENDPOINT_URL_<SERVICE>` variable for each service. */
export const ENDPOINT_VARIABLE: Record<AwsService, string> = {
  dynamodb: 'AWS_ENDPOINT_URL_DYNAMODB',
  s3: 'AWS_ENDPOINT_URL_S3',
  sqs: 'AWS_ENDPOINT_URL_SQS',
  ssm: 'AWS_ENDPOINT_URL_SSM',
  secretsmanager: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  ecs: 'AWS_ENDPOINT_URL_ECS',
  logs: 'AWS_ENDPOINT_URL_CLOUDWATCH_LOGS',
  cloudwatch: 'AWS_ENDPOINT_URL_CLOUDWATCH',
  kms: 'AWS_ENDPOINT_URL_KMS',
};

export interface AwsCall {
  /** The access key id the request was signed with (the rehearsal gives each role's users its logical id). */
  principal: string;
  service: AwsService;
  /** The API operation called (`TransactWriteItems`); one operation may need several actions. */
  operation: string;
  /** The IAM action authorized (`dynamodb:PutItem`). */
  action: string;
  /** ARNs the action is authorized against (`*` for actions without resource-level permissions). */
  resources: string[];
  /** Condition keys known from the request (e.g. `ecs:cluster`). */
  context?: Record<string, string>;
  /** The stand-in's HTTP status (0: no answer). */
  status: number;
}

/** An action a request needs, before the proxy knows who sent it and what came back. */
export type Authorization = Pick<AwsCall, 'action' | 'resources' | 'context'>;
