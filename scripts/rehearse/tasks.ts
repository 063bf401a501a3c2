/**
 * ECS tasks rehearsed as podman containers of the images `npm run images` built: a task definition's
 * first container with its Environment (resolved) and Secrets (fetched from Secrets Manager as the
 * task's EXECUTION role, as ECS does before the task starts), the task ROLE as the access key id, the
 * AWS endpoints, the host's network.
 */
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../../core/timeout';
import { HOST_NETWORK, podman as podmanUnbounded } from '../images/podman';
import type { RehearsedTemplate } from './cloud';
import { type PhysicalLookup, resolveString } from './iam/template';
import { type RuntimeSettings, runtimeEnv } from './lambda/env';

/** Every podman call bounded: a wedged podman fails the step instead of hanging the run. */
const podman = (args: string[]) => withTimeout(podmanUnbounded(args), 120_000, `podman ${args[0]}`);

export interface TaskDefinition {
  id: string;
  container: string;
  environment: Record<string, unknown>;
  secrets: { name: string; valueFrom: unknown }[];
  taskRoleId: string;
  executionRoleId: string;
}

const getAttId = (v: unknown): string =>
  v && typeof v === 'object' && 'Fn::GetAtt' in v
    ? ((v as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] ?? '')
    : '';

export function taskDefinition(template: RehearsedTemplate, id: string): TaskDefinition {
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, read by known names
  const p = (template.Resources[id]?.Properties ?? {}) as Record<string, any>;
  const c = p.ContainerDefinitions?.[0];
  if (!c) throw new Error(`${id}: no container definition`);
  return {
    id,
    container: String(c.Name),
    environment: Object.fromEntries(
      (c.Environment ?? []).map((e: { Name: string; Value: unknown }) => [e.Name, e.Value]),
    ),
    secrets: (c.Secrets ?? []).map((s: { Name: string; ValueFrom: unknown }) => ({
      name: s.Name,
      valueFrom: s.ValueFrom,
    })),
    taskRoleId: getAttId(p.TaskRoleArn),
    executionRoleId: getAttId(p.ExecutionRoleArn),
  };
}

export interface RunningTask {
  name: string;
  env: Record<string, string>;
  /** 'running' | 'exited' | ... as podman says, with the exit code once exited. */
  state(): Promise<{ status: string; exitCode?: number }>;
  logs(): Promise<string>;
  stop(): Promise<void>;
}

export async function runTask(options: {
  image: string;
  def: TaskDefinition;
  lookup: PhysicalLookup;
  settings: RuntimeSettings;
  /** Fetches a secret as the given principal (the execution role): ECS's own call. */
  fetchSecret: (secretId: string, principal: string) => Promise<string>;
  command?: string[];
}): Promise<RunningTask> {
  const { image, def, lookup, settings, fetchSecret, command = [] } = options;
  const env = runtimeEnv(def.environment, def.taskRoleId, lookup, settings);
  for (const s of def.secrets)
    env[s.name] = await fetchSecret(resolveString(s.valueFrom, lookup), def.executionRoleId);
  const name = `onair-rehearsal-${def.container}-${randomUUID().slice(0, 8)}`;
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await podman(['run', '-d', '--name', name, HOST_NETWORK, ...envArgs, image, ...command]);
  return {
    name,
    env,
    state: async () => {
      const out = (
        await podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', name])
      ).trim();
      const [status = 'unknown', code] = out.split(' ');
      return { status, exitCode: status === 'exited' ? Number(code) : undefined };
    },
    logs: () => podman(['logs', name]).catch((err) => String(err)),
    stop: async () => {
      await podman(['rm', '-f', '-t', '5', name]).catch(() => undefined);
    },
  };
}
