/** The dispatcher's dependencies, from its configuration: ECS tasks in AWS, child processes locally. */
import { awsClients, ecsClient } from '../adapters/aws-clients';
import { EcsLauncher } from '../adapters/ecs-launcher';
import { ProcessLauncher } from '../adapters/process-launcher';
import type { DispatcherConfig } from '../config/service-config';
import type { DispatcherDeps } from '../dispatcher/dispatcher-deps';
import type { WorkerLauncher } from '../ports/worker-launcher';
import { buildAttemptDeps } from './build-attempt-deps';

export interface DispatcherOptions {
  /** Where local workers' stdout/stderr go (default: the dispatcher's). */
  stdio?: 'inherit' | 'ignore';
}

export function buildDispatcherDeps(
  config: DispatcherConfig,
  options: DispatcherOptions = {},
): DispatcherDeps {
  const launcher: WorkerLauncher = config.ecs
    ? new EcsLauncher(config.ecs, ecsClient(config.aws.client))
    : new ProcessLauncher({ stdio: options.stdio });
  return { ...buildAttemptDeps(config.aws, awsClients(config.aws.client)), launcher, config };
}
