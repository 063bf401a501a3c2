/**
 * ECS stand-in (JSON 1.1, AmazonEC2ContainerServiceV20141113): RunTask starts the task definition's
 * container (tasks.ts) with the RunTask's command override, DescribeTasks and StopTask follow it;
 * UpdateService and DescribeServices record the fleet dispatcher's decisions (no engine is scaled).
 */
import { randomUUID } from 'node:crypto';
import type { RunningTask } from '../tasks';
import { AwsError, type JsonService, startJsonService } from './json-service';

export interface EcsStandIn extends JsonService {
  tasks: Map<string, RunningTask>;
  /** Every UpdateService: service and desired count, in order. */
  serviceUpdates: { service: string; desiredCount: number }[];
}

export async function startEcs(options: {
  account: string;
  region: string;
  /** Starts a task of this task definition (ARN) with the container command override. */
  launch: (taskDefinitionArn: string, command: string[] | undefined) => Promise<RunningTask>;
}): Promise<EcsStandIn> {
  const { account, region, launch } = options;
  const tasks = new Map<string, RunningTask>();
  const byToken = new Map<string, string>();
  const serviceUpdates: { service: string; desiredCount: number }[] = [];
  const desired = new Map<string, number>();
  const describe = async (taskArn: string, clusterArn: string) => {
    const state = await tasks.get(taskArn)?.state();
    const running = state?.status === 'running' || state?.status === 'created';
    return {
      taskArn,
      clusterArn,
      lastStatus: running ? 'RUNNING' : 'STOPPED',
      desiredStatus: running ? 'RUNNING' : 'STOPPED',
      containers: [
        { name: 'worker', exitCode: state?.exitCode, lastStatus: running ? 'RUNNING' : 'STOPPED' },
      ],
    };
  };
  const service = await startJsonService('AmazonEC2ContainerServiceV20141113', {
    RunTask: async (input: {
      cluster: string;
      taskDefinition: string;
      clientToken?: string;
      overrides?: { containerOverrides?: { command?: string[] }[] };
    }) => {
      const again = input.clientToken ? byToken.get(input.clientToken) : undefined;
      if (again) return { tasks: [await describe(again, input.cluster)], failures: [] };
      const task = await launch(input.taskDefinition, input.overrides?.containerOverrides?.[0]?.command);
      const taskArn = `arn:aws:ecs:${region}:${account}:task/${input.cluster.split('/').pop()}/${randomUUID().replaceAll('-', '')}`;
      tasks.set(taskArn, task);
      if (input.clientToken) byToken.set(input.clientToken, taskArn);
      return { tasks: [await describe(taskArn, input.cluster)], failures: [] };
    },
    DescribeTasks: async (input: { cluster: string; tasks: string[] }) => ({
      tasks: await Promise.all(
        input.tasks.filter((t) => tasks.has(t)).map((t) => describe(t, input.cluster)),
      ),
      failures: input.tasks.filter((t) => !tasks.has(t)).map((arn) => ({ arn, reason: 'MISSING' })),
    }),
    StopTask: async (input: { cluster: string; task: string }) => {
      const task = tasks.get(input.task);
      if (!task) throw new AwsError('InvalidParameterException', `no task ${input.task}`);
      await task.stop();
      return { task: await describe(input.task, input.cluster) };
    },
    UpdateService: (input: { cluster: string; service: string; desiredCount: number }) => {
      serviceUpdates.push({ service: input.service, desiredCount: input.desiredCount });
      desired.set(input.service, input.desiredCount);
      return { service: { serviceName: input.service, desiredCount: input.desiredCount, status: 'ACTIVE' } };
    },
    DescribeServices: (input: { cluster: string; services: string[] }) => ({
      services: input.services.map((s) => ({
        serviceName: s,
        desiredCount: desired.get(s) ?? 1,
        runningCount: 1,
        status: 'ACTIVE',
      })),
      failures: [],
    }),
  });
  return { ...service, tasks, serviceUpdates };
}
