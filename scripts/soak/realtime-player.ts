/**
 * `--realtime-player`: Chromium's processes under the real-time scheduler (SCHED_RR, priority 1), so
 * a busy machine does not slow the player. Headless Chromium's media clock is driven by a timer
 * thread; starved of CPU it loses time, and the player falls behind the live edge by what it lost
 * (measured: 1-3 s a minute at load 20-30, 0 with this), which would hide or fake the stream's own
 * drift. Linux only, and needs root or CAP_SYS_NICE; the stream and the server are untouched.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  comm: string;
}

/** The processes descended from `root` whose command is Chromium's (chromium, chrome, headless_shell). Pure. */
export function chromiumDescendants(processes: readonly ProcessInfo[], root: number): number[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (/chrom|headless_shell/.test(child.comm)) found.push(child.pid);
      walk(child.pid);
    }
  };
  walk(root);
  return found;
}

/** `/proc/<pid>/stat`'s pid, command and parent. Pure; undefined for a line it cannot read. */
export function parseStat(stat: string): ProcessInfo | undefined {
  const m = /^(\d+) \((.*)\) \S+ (\d+)/s.exec(stat);
  return m ? { pid: Number(m[1]), comm: m[2]!, ppid: Number(m[3]) } : undefined;
}

async function processes(): Promise<ProcessInfo[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const infos = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(parseStat, () => undefined)),
  );
  return infos.filter((p): p is ProcessInfo => p !== undefined);
}

/**
 * Puts every Chromium process this one started (and all their threads) under SCHED_RR 1: how many
 * were raised, and the first refusal (no CAP_SYS_NICE, no `chrt`) if any was refused.
 */
export async function raisePlayerPriority(): Promise<{ raised: number; refused?: string }> {
  const pids = chromiumDescendants(await processes(), process.pid);
  const run = promisify(execFile);
  const results = await Promise.allSettled(
    pids.map((pid) => run('chrt', ['-a', '-r', '-p', '1', String(pid)])),
  );
  const refused = results.find((r) => r.status === 'rejected');
  return {
    raised: results.filter((r) => r.status === 'fulfilled').length,
    ...(refused ? { refused: String((refused as PromiseRejectedResult).reason).split('\n')[0] } : {}),
  };
}
