/**
 * The node flags the engine's container starts it with: read from the exec-form CMD of
 * engine-container/Dockerfile, so the benchmark runs the bundle exactly as the container does (a V8
 * setting there, such as the young generation's size, is measured without being copied here).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOCKERFILE = fileURLToPath(new URL('../../../engine-container/Dockerfile', import.meta.url));

/** The arguments between `node` and the script in a line `CMD ["node", ..., "dist/engine.mjs"]`. */
export function nodeFlagsOfCmd(dockerfile: string): string[] {
  const cmd = dockerfile.split('\n').find((line) => /^CMD\s*\[/.test(line));
  if (!cmd) throw new Error('the Dockerfile has no exec-form CMD');
  const argv = JSON.parse(cmd.replace(/^CMD\s*/, '')) as unknown;
  if (!Array.isArray(argv) || argv[0] !== 'node') throw new Error(`CMD does not start node: ${cmd}`);
  return argv.slice(1, -1).map(String);
}

export function containerNodeFlags(): string[] {
  return nodeFlagsOfCmd(readFileSync(DOCKERFILE, 'utf8'));
}
