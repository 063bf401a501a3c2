/**
 * CPU pinning and per-second CPU of another process, from outside it (/proc, Linux): the engine and
 * the load tool each get their own core, and each one's CPU is read the same way.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Pins every thread of a running process (and the threads it starts later) to the given cores. */
export function pinProcess(pid: number, cores: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User + system CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at state (field 3).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

export interface CpuSeconds {
  /** Average over the window, % of one core. */
  avgPct: number;
  /** The busiest whole second, % of one core. */
  worstSecondPct: number;
  perSecondPct: number[];
}

/** Samples a process's CPU once a second for `seconds` (resolution: one clock tick, 10 ms). */
export function sampleCpu(pid: number, seconds: number): Promise<CpuSeconds> {
  return sampleCpuWhile(pid, (sampled) => sampled < seconds);
}

/**
 * Samples a process's CPU once a second for as long as `more` (asked before each second with the seconds
 * sampled so far) says so.
 */
export async function sampleCpuWhile(
  pid: number,
  more: (sampled: number) => boolean | Promise<boolean>,
): Promise<CpuSeconds> {
  const perSecondPct: number[] = [];
  const first = { cpu: cpuSeconds(pid), at: performance.now() };
  let last = first;
  for (let s = 0; await more(s); s++) {
    // Until the next whole second from the start: a timer that fires early waits again, so no sample
    // covers a sliver of a second (one clock tick over 1 ms would read as 1,000 %).
    const due = first.at + (s + 1) * 1000;
    while (performance.now() < due) await new Promise((r) => setTimeout(r, due - performance.now()));
    const now = { cpu: cpuSeconds(pid), at: performance.now() };
    perSecondPct.push(((now.cpu - last.cpu) / ((now.at - last.at) / 1000)) * 100);
    last = now;
  }
  return {
    avgPct: ((last.cpu - first.cpu) / Math.max(1e-9, (last.at - first.at) / 1000)) * 100,
    worstSecondPct: Math.max(0, ...perSecondPct),
    perSecondPct,
  };
}

/** The system's 1-minute load average and the number of cores, for the report's header. */
export function machineLoad(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
