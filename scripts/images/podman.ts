/**
 * podman as this kind of machine needs it (itself a container, no systemd): runc, cgroupfs, no default
 * ulimits (containers.conf, passed as CONTAINERS_CONF so no host file is needed). Builds and runs use
 * the host's network (`HOST_NETWORK`): the machine cannot set up podman's bridge. Everything that runs
 * podman for onair (the image builds, their test, the rehearsal) goes through here.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const CONTAINERS_CONF = join(import.meta.dirname, 'containers.conf');

/** Options that go before podman's subcommand. */
export const PODMAN_GLOBAL_ARGS = ['--runtime', 'runc', '--cgroup-manager=cgroupfs'] as const;

export const HOST_NETWORK = '--network=host';

export interface PodmanCommand {
  command: 'podman';
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The full command line for `podman <args>`, for callers that spawn it themselves (long builds). */
export function podmanCommand(args: readonly string[]): PodmanCommand {
  return {
    command: 'podman',
    args: [...PODMAN_GLOBAL_ARGS, ...args],
    env: { ...process.env, CONTAINERS_CONF },
  };
}

const execFileAsync = promisify(execFile);

/** Runs `podman <args>` to completion and returns its stdout; rejects with its stderr. */
export async function podman(args: readonly string[]): Promise<string> {
  const { command, args: full, env } = podmanCommand(args);
  const { stdout } = await execFileAsync(command, full, { env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Whether podman can be run at all (tests skip without it). */
export function podmanAvailable(): boolean {
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Whether podman's store holds `name` (synchronous, for a test's skip condition). */
export function imageExistsSync(name: string): boolean {
  const { command, args, env } = podmanCommand(['image', 'exists', name]);
  return spawnSync(command, args, { env, stdio: 'ignore' }).status === 0;
}

/** The image's size in bytes as podman reports it. */
export async function imageSize(name: string): Promise<number> {
  return Number((await podman(['image', 'inspect', '--format', '{{.Size}}', name])).trim());
}
