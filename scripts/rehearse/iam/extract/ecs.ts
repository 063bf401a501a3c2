/**
 * ECS (JSON 1.1, `AmazonEC2ContainerServiceV20141113.<Operation>`). RunTask is authorized on the task
 * definition, with the cluster as condition key; roles it overrides also need iam:PassRole (the roles
 * the task definition itself names are added by derived-calls.ts, which knows the template).
 */
import { type AwsEnv, arnOf } from '../aws-env';
import type { Authorization } from '../calls';
import { type Extractor, unreadable } from './extracted';
import { jsonOperation, str } from './request';

export const extractEcs: Extractor = (request, env) => {
  const parsed = jsonOperation(request);
  if (!parsed) return unreadable('ecs', 'no X-Amz-Target');
  const { operation, input } = parsed;
  const cluster = clusterName(str(input.cluster));
  const context = { 'ecs:cluster': arnOf(env, 'ecs', `cluster/${cluster}`) };
  const on = (resources: string[], withCluster = true): Authorization => ({
    action: `ecs:${operation}`,
    resources: resources.length ? resources : ['*'],
    ...(withCluster ? { context } : {}),
  });
  switch (operation) {
    case 'RunTask':
    case 'StartTask': {
      const overrides = (input.overrides ?? {}) as { taskRoleArn?: string; executionRoleArn?: string };
      const passed = [overrides.taskRoleArn, overrides.executionRoleArn].filter((r): r is string =>
        Boolean(r),
      );
      return {
        operation,
        authorizations: [
          on([taskDefinitionArn(env, str(input.taskDefinition) ?? '')]),
          ...(passed.length ? [{ action: 'iam:PassRole', resources: passed }] : []),
        ],
      };
    }
    case 'DescribeTasks':
    case 'StopTask':
    case 'TagResource': {
      const tasks = Array.isArray(input.tasks) ? input.tasks.map(String) : [str(input.task)].filter(Boolean);
      return { operation, authorizations: [on(tasks.map((t) => taskArn(env, cluster, t!)))] };
    }
    case 'UpdateService':
    case 'DescribeServices': {
      const services = Array.isArray(input.services) ? input.services.map(String) : [str(input.service)];
      return {
        operation,
        authorizations: [on(services.filter(Boolean).map((s) => serviceArn(env, cluster, s!)))],
      };
    }
    case 'DescribeTaskDefinition':
      return { operation, authorizations: [on(['*'], false)] };
    default:
      return { operation, authorizations: [on(['*'])] };
  }
};

function clusterName(cluster: string | undefined): string {
  return cluster?.split('/').pop() || 'default';
}

/** A family or `family:revision` becomes the ARN; a family without revision stays without one. */
function taskDefinitionArn(env: AwsEnv, value: string): string {
  return value.startsWith('arn:') ? value : arnOf(env, 'ecs', `task-definition/${value}`);
}

function taskArn(env: AwsEnv, cluster: string, task: string): string {
  return task.startsWith('arn:') ? task : arnOf(env, 'ecs', `task/${cluster}/${task}`);
}

function serviceArn(env: AwsEnv, cluster: string, service: string): string {
  return service.startsWith('arn:') ? service : arnOf(env, 'ecs', `service/${cluster}/${service}`);
}
