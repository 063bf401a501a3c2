/**
 * What ECS authorizes as a task's execution role when it starts a container: pulls the image from
 * ECR, reads the container's secrets, creates its log stream and writes to it. No request to the
 * stand-ins shows these; the rehearsal adds them for every task it starts.
 */
import { type AwsEnv, arnOf } from './aws-env';
import type { AwsCall } from './calls';
import { roleIdOfArn } from './role-of-arn';
import { type CfnTemplate, type PhysicalLookup, resolve, resolveString } from './template';

/** The calls of one task of `taskDefinitionId`, signed by its execution role's logical id. */
export function executionRoleCalls(
  template: CfnTemplate,
  lookup: PhysicalLookup,
  taskDefinitionId: string,
  env: AwsEnv,
): AwsCall[] {
  const task = template.Resources[taskDefinitionId];
  if (task?.Type !== 'AWS::ECS::TaskDefinition')
    throw new Error(`${taskDefinitionId} is not a task definition`);
  const executionRole = task.Properties?.ExecutionRoleArn;
  if (executionRole === undefined) return [];
  const roleArn = resolveString(executionRole, lookup);
  const principal = roleIdOfArn(template, lookup, roleArn);
  const call = (
    service: AwsCall['service'],
    operation: string,
    action: string,
    resources: string[],
  ): AwsCall => ({
    principal,
    service,
    operation,
    action,
    resources,
    status: 200,
  });
  type Container = {
    Name?: string;
    Image?: string;
    Secrets?: { ValueFrom: string }[];
    LogConfiguration?: { LogDriver?: string; Options?: Record<string, string> };
  };
  const containers = (resolve(task.Properties?.ContainerDefinitions, lookup) ?? []) as Container[];
  return containers.flatMap((container) => {
    const calls: AwsCall[] = [];
    const ecr = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.[^/]+\/([^:@]+)/.exec(container.Image ?? '');
    if (ecr) {
      const repository = arnOf({ ...env, account: ecr[1]!, region: ecr[2]! }, 'ecr', `repository/${ecr[3]}`);
      calls.push(call('ecs', 'PullImage', 'ecr:GetAuthorizationToken', ['*']));
      for (const action of ['BatchCheckLayerAvailability', 'GetDownloadUrlForLayer', 'BatchGetImage'])
        calls.push(call('ecs', 'PullImage', `ecr:${action}`, [repository]));
    }
    for (const secret of container.Secrets ?? []) {
      const from = secret.ValueFrom;
      if (from.includes(':secretsmanager:'))
        // `<secret ARN>:<json-key>:<version-stage>:<version-id>` names the secret by its first 7 fields.
        calls.push(
          call('secretsmanager', 'GetSecretValue', 'secretsmanager:GetSecretValue', [
            from.split(':').slice(0, 7).join(':'),
          ]),
        );
      else
        calls.push(
          call('ssm', 'GetParameters', 'ssm:GetParameters', [
            from.startsWith('arn:') ? from : arnOf(env, 'ssm', `parameter/${from.replace(/^\//, '')}`),
          ]),
        );
    }
    const log = container.LogConfiguration;
    if (log?.LogDriver === 'awslogs' && log.Options?.['awslogs-group']) {
      const group = log.Options['awslogs-group'];
      const stream = `${log.Options['awslogs-stream-prefix'] ?? 'ecs'}/${container.Name ?? 'container'}/rehearsal`;
      const streamArn = arnOf(env, 'logs', `log-group:${group}:log-stream:${stream}`);
      calls.push(call('logs', 'CreateLogStream', 'logs:CreateLogStream', [streamArn]));
      calls.push(call('logs', 'PutLogEvents', 'logs:PutLogEvents', [streamArn]));
    }
    return calls;
  });
}
