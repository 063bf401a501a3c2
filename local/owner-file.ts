/**
 * Who owns the DynamoDB Local of a data folder. `npm start` writes `<dataDir>/owner.json` (the JVM's
 * pid, its own pid, the port) and removes it on a clean stop. At the next start the file tells a
 * leftover of ours (JVM alive, owner gone: stopped, then started afresh) from a data folder in use by
 * another running onair (refused: two JVMs on one folder corrupt it).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../core/process/is-alive';
import { waitFor } from '../core/wait-for';

export interface Owner {
  jvmPid: number;
  ownerPid: number;
  port: number;
}

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

const fileIn = (dataDir: string) => join(dataDir, 'owner.json');

/** True when `pid` is a DynamoDB Local JVM (pids are reused: never kill on a pid alone). */
function isDynamoDbLocal(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
  } catch {
    return false;
  }
}

export function readOwner(dataDir: string): Owner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(fileIn(dataDir), 'utf8')) as Partial<Owner>;
    if (typeof parsed.jvmPid !== 'number' || typeof parsed.ownerPid !== 'number') return undefined;
    return { jvmPid: parsed.jvmPid, ownerPid: parsed.ownerPid, port: Number(parsed.port) };
  } catch {
    return undefined;
  }
}

export function writeOwner(dataDir: string, owner: Owner): void {
  writeFileSync(fileIn(dataDir), `${JSON.stringify(owner)}\n`);
}

export function removeOwner(dataDir: string): void {
  rmSync(fileIn(dataDir), { force: true });
}

/**
 * Makes the data folder ours: refuses it while another live onair owns it, stops a JVM a dead owner
 * left behind. Returns what it did, for the log.
 */
export async function claimDataDir(dataDir: string): Promise<'free' | 'stopped-leftover'> {
  const owner = readOwner(dataDir);
  if (!owner || !isAlive(owner.jvmPid) || !isDynamoDbLocal(owner.jvmPid)) return 'free';
  if (isAlive(owner.ownerPid)) {
    throw new DataDirInUseError(
      `the data folder ${dataDir} is in use by another onair (pid ${owner.ownerPid}, DynamoDB Local on port ${owner.port}): ` +
        `stop that one first, or start with another --data-dir (or --in-memory)`,
    );
  }
  process.kill(owner.jvmPid, 'SIGKILL');
  await waitFor(
    () => isAlive(owner.jvmPid),
    (alive) => !alive,
    { timeoutMs: 10_000, what: `leftover DynamoDB Local (pid ${owner.jvmPid}) to stop` },
  );
  removeOwner(dataDir);
  return 'stopped-leftover';
}
