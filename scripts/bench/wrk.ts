/**
 * The load tool: wrk (Debian package `wrk`; `apt-get install -y wrk`), a C load generator that drives
 * a raw node:http server several times faster than a Node client can, pinned to its own core. A Lua
 * script sends one request at a time per connection, round-robin over the given paths, and prints
 * wrk's own latency percentiles as JSON. Its CPU (user + system, from the shell's `times`) says
 * whether it had CPU to spare: near 100 % of its core, it, not the server, would be the limit.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface WrkPlan {
  port: number;
  /** A file with one request path per line (written by writePaths). */
  pathsFile: string;
  connections: number;
  seconds: number;
  /** Cores for wrk (taskset -c), e.g. "1". */
  cores: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Socket errors plus non-2xx answers. */
  errors: number;
  bytesPerResponse: number;
  latency: { p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number; meanMs: number };
  /** wrk's CPU over its run, % of one core. */
  clientCpuPct: number;
}

const SCRIPT = `
local paths = {}
local i = 0
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
end
function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
function done(s, l, r)
  local e = s.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"errors":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%f}\\n',
    s.requests, s.duration, s.bytes, e.connect + e.read + e.write + e.status + e.timeout,
    l:percentile(50), l:percentile(90), l:percentile(99), l.max, l.mean))
end
`;

export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version.
    return (err as { status?: number }).status === 1;
  }
}

/** Writes the Lua script and the paths file into dir; returns the paths file. */
export async function writePaths(dir: string, name: string, paths: string[]): Promise<string> {
  await writeFile(join(dir, 'round-robin.lua'), SCRIPT);
  const file = join(dir, `${name}.txt`);
  await writeFile(file, `${paths.join('\n')}\n`);
  return file;
}

export async function runWrk(plan: WrkPlan): Promise<WrkResult> {
  const script = join(plan.pathsFile, '..', 'round-robin.lua');
  const wrk = [
    'taskset',
    '-c',
    plan.cores,
    'wrk',
    '-t1',
    `-c${plan.connections}`,
    `-d${plan.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    script,
    `http://127.0.0.1:${plan.port}`,
    '--',
    plan.pathsFile,
  ];
  // `times` prints the shell's children's user and system CPU: wrk's own, since the shell forks it.
  const quoted = wrk.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile('bash', ['-c', `${quoted}; times`], { maxBuffer: 1 << 20 }, (err, out) =>
      err ? reject(err) : resolve(out),
    ),
  );
  const json = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!json) throw new Error(`wrk printed no result:\n${stdout}`);
  const r = JSON.parse(json.slice('WRK_JSON '.length));
  const timesLine = stdout.trim().split('\n').at(-1) ?? '';
  const cpuS = [...timesLine.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (s, m) => s + Number(m[1]) * 60 + Number(m[2]),
    0,
  );
  const seconds = r.durationUs / 1e6;
  const us = (x: number) => x / 1000;
  return {
    requests: r.requests,
    seconds,
    rps: r.requests / seconds,
    errors: r.errors,
    bytesPerResponse: r.requests ? r.bytes / r.requests : 0,
    latency: { p50Ms: us(r.p50), p90Ms: us(r.p90), p99Ms: us(r.p99), maxMs: us(r.max), meanMs: us(r.mean) },
    clientCpuPct: (cpuS / seconds) * 100,
  };
}
