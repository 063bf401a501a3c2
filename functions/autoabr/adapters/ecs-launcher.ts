/**
 * AWS workers: one Fargate task per attempt (RunTask of the worker task definition), sized by the job's
 * pipeline `taskSize`. The image's entry point is the worker (engine-container/worker.Dockerfile); the
 * command override is its arguments, `<jobId> <attempt>`. Exits are not observed here: the heartbeat
 * timeout covers tasks that die. The client is bounded in time and retries (adapters/aws-clients.ts), so
 * each RunTask carries an idempotency token of its job and attempt: a retry after a timeout whose first
 * try did start a task gets that task back instead of starting a second worker for the attempt.
 */
import { type ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs';
import type { EcsConfig } from '../config/service-config';
import type { JobItem } from '../domain/job';
import { type WorkerLauncher, workerArgs } from '../ports/worker-launcher';

/** ECS takes up to 64 printable ASCII characters; a job id is 36 and an attempt a few digits. */
export const runTaskToken = (jobId: string, attempt: number): string =>
  `${jobId}:${attempt}`.replace(/[^\x21-\x7e]/g, '_').slice(0, 64);

export class EcsLauncher implements WorkerLauncher {
  constructor(
    private readonly config: EcsConfig,
    private readonly ecs: ECSClient,
  ) {}

  async launch(job: JobItem, attempt: number): Promise<string> {
    const res = await this.ecs.send(
      new RunTaskCommand({
        cluster: this.config.cluster,
        taskDefinition: this.config.taskDefinition,
        launchType: 'FARGATE',
        count: 1,
        clientToken: runTaskToken(job.id, attempt),
        startedBy: `autoabr-${job.id.slice(0, 24)}`,
        networkConfiguration: {
          awsvpcConfiguration: {
            subnets: this.config.subnets,
            securityGroups: this.config.securityGroups,
            assignPublicIp: this.config.assignPublicIp ? 'ENABLED' : 'DISABLED',
          },
        },
        overrides: {
          cpu: String(job.pipeline.taskSize.cpu),
          memory: String(job.pipeline.taskSize.memoryMiB),
          containerOverrides: [{ name: this.config.container, command: workerArgs(job, attempt) }],
        },
      }),
    );
    const arn = res.tasks?.[0]?.taskArn;
    if (!arn) {
      const why = res.failures
        ?.map((f) => `${f.reason ?? 'unknown'}${f.detail ? ` (${f.detail})` : ''}`)
        .join('; ');
      throw new Error(`ECS RunTask started no task: ${why || 'no reason given'}`);
    }
    return arn;
  }

  async stopAll(): Promise<void> {}
}
