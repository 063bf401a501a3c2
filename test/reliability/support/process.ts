/**
 * The child processes of this test process, found on Linux's /proc: how a test finds the DynamoDB Local
 * it started itself (by the port on its command line) to freeze it with SIGSTOP, and sees it take the
 * signal.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (0: state, 1: ppid, ...); undefined once gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended while we looked
  }
}

/**
 * The pid of this process's child whose command line holds every one of `args`, in any order; an arg
 * also matches a path that ends in it (`DynamoDBLocal.jar` matches `/.../DynamoDBLocal.jar`).
 */
export function childProcessWith(args: readonly string[]): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (Number(statFields(entry)?.[1]) !== process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.every((arg) => argv.some((a) => a === arg || a.endsWith(`/${arg}`)))) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/** The process's state letter (R running, S sleeping, T stopped, Z zombie, ...); undefined once gone. */
export const processState = (pid: number): string | undefined => statFields(pid)?.[0];
