/**
 * What the Lambda service authorizes as a function's role around the function's own code: writing its
 * logs (to LoggingConfig's group, else /aws/lambda/<name>) and polling its event sources (an SQS
 * queue, a DynamoDB stream). No request to the stand-ins shows these; the rehearsal adds them for
 * every function it runs.
 */
import { type AwsEnv, arnOf } from './aws-env';
import type { AwsCall } from './calls';
import { roleIdOfArn } from './role-of-arn';
import { type CfnTemplate, type PhysicalLookup, resolveString, resourcesOfType } from './template';

const SQS_POLLING = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];
const STREAM_POLLING = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];

/** The calls the Lambda service makes for `functionId`, signed by its role's logical id. */
export function lambdaServiceCalls(
  template: CfnTemplate,
  lookup: PhysicalLookup,
  functionId: string,
  env: AwsEnv,
): AwsCall[] {
  const fn = template.Resources[functionId];
  if (fn?.Type !== 'AWS::Lambda::Function') throw new Error(`${functionId} is not a Lambda function`);
  const principal = roleIdOfArn(template, lookup, resolveString(fn.Properties?.Role, lookup));
  const call = (
    service: AwsCall['service'],
    operation: string,
    action: string,
    resource: string,
  ): AwsCall => ({
    principal,
    service,
    operation,
    action,
    resources: [resource],
    status: 200,
  });
  const logging = fn.Properties?.LoggingConfig as { LogGroup?: unknown } | undefined;
  const group = logging?.LogGroup
    ? resolveString(logging.LogGroup, lookup)
    : `/aws/lambda/${lookup.ref(functionId)}`;
  const stream = arnOf(env, 'logs', `log-group:${group}:log-stream:2026/01/01/[$LATEST]rehearsal`);
  const calls = [
    call('logs', 'CreateLogStream', 'logs:CreateLogStream', stream),
    call('logs', 'PutLogEvents', 'logs:PutLogEvents', stream),
  ];
  const name = lookup.ref(functionId);
  for (const [, mapping] of resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')) {
    if (resolveString(mapping.Properties?.FunctionName, lookup) !== name) continue;
    const source = resolveString(mapping.Properties?.EventSourceArn, lookup);
    const service = source.split(':')[2];
    const actions = service === 'sqs' ? SQS_POLLING : service === 'dynamodb' ? STREAM_POLLING : [];
    for (const action of actions)
      calls.push(call(service as AwsCall['service'], 'EventSourcePoll', action, source));
  }
  return calls;
}
