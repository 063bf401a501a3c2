/**
 * The child processes of this test process, found on Linux's /proc: how a test finds the DynamoDB Local
 * it started itself (by the port on its command line) to freeze it with SIGSTOP.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The pid of this process's child whose command line holds every one of `args`, in any order; an arg
 * also matches a path that ends in it (`DynamoDBLocal.jar` matches `/.../DynamoDBLocal.jar`).
 */
export function childProcessWith(args: readonly string[]): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.every((arg) => argv.some((a) => a === arg || a.endsWith(`/${arg}`)))) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/**
 * The process's state letter from /proc (R running, S sleeping, T stopped, Z zombie, ...); undefined
 * once it is gone.
 */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
